-- Under advise, a script's own SQL names its tables as declared; lua/scratch_sql.lua runs it
-- with the scratch copies' names in their place, and nothing else changed.
local scratch_sql = require "bulkbench.scratch_sql"

local tables = {
  parent = { name = "parent__scratch42", scratch = "__scratch42" },
  Items = { name = "Items__scratch42", scratch = "__scratch42" },
  mine = { name = "mine" }, -- not a scratch copy (a `new` table has its own): left as it is
}
local function rw(sql) return scratch_sql.rewrite(sql, tables) end

describe("scratch_sql", function()
  it("names the copy where the declared name stands as a name, bare in any case", function()
    assert.are.equal("insert into parent__scratch42 select 1", rw("insert into parent select 1"))
    assert.are.equal("DROP TABLE IF EXISTS parent__scratch42", rw("DROP TABLE IF EXISTS PARENT"))
    assert.are.equal("int references parent__scratch42(id)", rw("int references parent(id)"))
    assert.are.equal("select parent__scratch42.id from public.parent__scratch42", rw("select parent.id from public.parent"))
  end)
  it("takes a quoted name only as written", function()
    assert.are.equal('select * from "Items__scratch42"', rw('select * from "Items"'))
    assert.are.equal('select * from `Items__scratch42`', rw('select * from `Items`'))
    assert.are.equal('select * from "items"', rw('select * from "items"'))
  end)
  it("leaves string literals, longer names and tables that are not copies alone", function()
    assert.are.equal("insert into log values ('parent', 'it''s parent')", rw("insert into log values ('parent', 'it''s parent')"))
    assert.are.equal("select * from parents, parent_x, my_parent, parent__scratch42", rw("select * from parents, parent_x, my_parent, parent__scratch42"))
    assert.are.equal("delete from mine where id = $1", rw("delete from mine where id = $1"))
  end)
end)
