/* api_json.c — JSON text into Lua values with jansson (reports read results files). */
#include <jansson.h>
#include <lauxlib.h>
#include <lua.h>

#include "api.h"

void api_push_json(lua_State *L, json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *x;
        lua_createtable(L, 0, (int)json_object_size(v));
        json_object_foreach(v, k, x)
        {
            if (json_is_null(x)) continue; /* absent = null: scripts test with `== nil` */
            api_push_json(L, x);
            lua_setfield(L, -2, k);
        }
        break;
    }
    case JSON_ARRAY: {
        size_t i;
        json_t *x;
        lua_createtable(L, (int)json_array_size(v), 0);
        json_array_foreach(v, i, x)
        {
            api_push_json(L, x);
            lua_rawseti(L, -2, (int)i + 1);
        }
        break;
    }
    case JSON_STRING: lua_pushlstring(L, json_string_value(v), json_string_length(v)); break;
    case JSON_INTEGER: lua_pushnumber(L, (lua_Number)json_integer_value(v)); break;
    case JSON_REAL: lua_pushnumber(L, json_real_value(v)); break;
    case JSON_TRUE: lua_pushboolean(L, 1); break;
    case JSON_FALSE: lua_pushboolean(L, 0); break;
    default: lua_pushnil(L); break;
    }
}

/* core.json_decode(text) -> value, or nil and the parser's message with line and column */
int api_json_decode(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    json_error_t e;
    json_t *v = json_loadb(s, len, JSON_DECODE_ANY, &e);
    if (!v) {
        lua_pushnil(L);
        lua_pushfstring(L, "line %d column %d: %s", e.line, e.column, e.text);
        return 2;
    }
    api_push_json(L, v);
    json_decref(v);
    return 1;
}
