# bulkbench — build, install dependencies, test, benchmark. Read top to bottom.
#
#   make deps        install missing Debian packages (apt-get, via sudo when not root)
#   make             build ./bulkbench (the lua/ library compiled in)
#   make MPI=1       the same binary able to run under mpirun (Open MPI)
#   make quickstart  deps + build + the quickstart scenario on the embedded SQLite
#   make test        build + every suite that needs no server (none started), under a minute on 2 cores
#   make check       deps + build + every test suite, ending "N passed, N failed, N skipped"
#   make sanitize    the same suite on an AddressSanitizer + UBSan build
#   make fuzz        libFuzzer targets (tests/fuzz) for FUZZ_TIME seconds each, from their corpus
#   make soak        8 threads for 10 minutes per server: flat memory, nothing lost
#   make bench       side-by-side comparisons with peer tools, ratios printed
#   make docs        docs/img/*.png: pictures of real reports (HTML report in headless Chromium)
#   make clean

VERSION := 0.1.0
# parallel compiles for the targets below (and the test suites' own builds)
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

# Debian packages: build libraries, test tools, the servers the tests start, the peers the benchmarks run.
DEB_PKGS := build-essential pkg-config sqlite3 python3-prometheus-client luajit libluajit-5.1-dev libpq-dev default-libmysqlclient-dev \
            libcsv-dev libsqlite3-dev libjansson-dev zlib1g-dev libzstd-dev lua-busted postgresql mariadb-server mariadb-client \
            sysbench bc python3 valgrind zstd clang libclang-rt-14-dev libopenmpi-dev openmpi-bin openssh-client \
            unixodbc-dev odbc-postgresql odbc-mariadb libsqliteodbc chromium libssl-dev openssl

# CORE_PKGS: what base, drivers and core build against (no Lua); the binary adds LuaJIT
CORE_PKGS := libpq sqlite3 jansson zlib libzstd odbc odbcinst
# libcrypto: the scenario's sha256 in results (the binary's own; core does not need it)
PKGS    := luajit libcrypto $(CORE_PKGS)
MYSQL   := $(shell pkg-config --exists mysqlclient 2>/dev/null && echo mysqlclient || echo libmariadb)
CFLAGS  ?= -O2 -g
ifeq ($(SAN),1) # make sanitize: AddressSanitizer and UndefinedBehaviorSanitizer
CFLAGS  += -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(FUZZ),1) # tests/fuzz.sh, with CC=clang: every object instrumented for libFuzzer
FUZZ_O  ?= -O1 # tests/fuzz.sh builds its runs of a few seconds at -O0
CFLAGS  += $(FUZZ_O) -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=fuzzer,address,undefined
endif
ifeq ($(MPI),1) # runs spread over MPI ranks (mpirun); only runtime/core/run/cluster.c differs
CFLAGS  += -DBB_MPI $(shell pkg-config --cflags ompi-c)
LDLIBS  += $(shell pkg-config --libs ompi-c)
endif
CFLAGS  += -std=gnu11 -Wall -Wextra -pthread -DBB_VERSION=\"$(VERSION)\" \
           $(shell pkg-config --cflags $(PKGS) $(MYSQL) 2>/dev/null)
# libpq and unixODBC are not linked: their engines load them on first use (drivers/lazylib.h)
LINKED    := $(filter-out libpq odbc odbcinst,$(CORE_PKGS))
CORE_LIBS := $(LDLIBS) $(shell pkg-config --libs $(LINKED) $(MYSQL) 2>/dev/null) -lcsv -lm -ldl -pthread
LDLIBS    += $(shell pkg-config --libs luajit libcrypto $(LINKED) $(MYSQL) 2>/dev/null) -lcsv -lm -ldl -pthread

# The rooms, bottom up (docs/architecture.md): base, drivers, runtime/core (in wings), runtime/host, runtime/cmd.
# The first three are a library without Lua (build/libbulkbench.a): the fuzz targets and the
# no-Lua link test use it alone; the binary is host + cmd + the embedded Lua library on top.
CORE_SRC := $(wildcard base/*.c drivers/*.c drivers/*/*.c runtime/core/*.c runtime/core/*/*.c)
TOP_SRC  := $(wildcard runtime/host/*.c runtime/cmd/*.c)
CORE_OBJ := $(CORE_SRC:%.c=build/%.o) build/engines.o
# An engine is a folder: drivers/NAME/, whose code defines `const bb_driver bb_driver_NAME`. The
# registry's table (bb_drivers[], by name) is written from the folders found, so adding an
# engine is adding its folder, and taking one out is removing it.
ENGINES  := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard drivers/*/*.c)))))
OBJ      := $(TOP_SRC:%.c=build/%.o) build/embed.o
# the Lua library in three packages: the scenario library (lua/*.lua), new (lua/new/) and the
# reports (lua/report/); and each engine's own Lua in its folder (drivers/NAME/*.lua). Every
# file found there is embedded, and nothing else: the list is the tree's at each make.
LUA_SRC  := $(sort $(shell find lua -name '*.lua') $(wildcard drivers/*/*.lua))
LUA_BC   := $(LUA_SRC:%.lua=build/lua/%.h)

all: bulkbench

build/libbulkbench.a: $(CORE_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(CORE_OBJ)

bulkbench: $(OBJ) build/libbulkbench.a
	$(CC) $(CFLAGS) -o $@ $(OBJ) build/libbulkbench.a $(LDFLAGS) $(LDLIBS)

# core has no Lua: a program on the library alone links without LuaJIT
build/nolua: tests/nolua.c build/libbulkbench.a
	$(CC) $(CFLAGS) -o $@ $< build/libbulkbench.a $(LDFLAGS) $(CORE_LIBS)

# -MMD -MP: each object lists the headers it read (build/*.d), so a header change rebuilds only its readers
build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<
-include $(OBJ:.o=.d) $(CORE_OBJ:.o=.d)

# cluster.o is the one object MPI=1 changes: rebuilt (and relinked) whenever the setting does
build/mpi.flag: FORCE
	@mkdir -p build; echo "$(MPI)" | cmp -s - $@ || echo "$(MPI)" > $@
build/runtime/core/run/cluster.o: build/mpi.flag

# A module's name is its path: lua/bulkbench.lua is "bulkbench", lua/DIR/NAME.lua
# "bulkbench.DIR.NAME" and drivers/ENGINE/NAME.lua "bulkbench.drivers.ENGINE.NAME", so two files
# of one base name in two folders are two modules. Each becomes bytecode with debug info
# (tracebacks keep file:line), its C symbol the path with / as __.
lua_mod = $(if $(filter lua/bulkbench.lua,$1),bulkbench,bulkbench.$(subst /,.,$(patsubst lua/%,%,$(1:.lua=))))
lua_sym = bbmod_$(subst /,__,$(1:.lua=))
build/lua/%.h: %.lua
	@mkdir -p $(dir $@)
	luajit -b -g -n $(call lua_sym,$<) $< $@

# the list of modules as it stands: embed.c is written again when a file comes or goes (a
# deleted module must not stay in the binary), not only when one changes
build/lua.list: FORCE
	@mkdir -p build; echo "$(LUA_SRC)" | cmp -s - $@ || echo "$(LUA_SRC)" > $@

build/embed.c: $(LUA_BC) build/lua.list Makefile
	@{ echo '#include "../runtime/host/embed.h"'; \
	   $(foreach p,$(LUA_SRC),echo '#include "lua/$(p:.lua=.h)"';) \
	   echo 'const bb_lua_module bb_lua_modules[] = {'; \
	   $(foreach p,$(LUA_SRC),echo '  { "$(call lua_mod,$p)", "@$p", luaJIT_BC_$(call lua_sym,$p), luaJIT_BC_$(call lua_sym,$p)_SIZE },';) \
	   echo '  { 0, 0, 0, 0 }'; echo '};'; } > $@

build/engines.list: FORCE
	@mkdir -p build; echo "$(ENGINES)" | cmp -s - $@ || echo "$(ENGINES)" > $@

build/engines.c: build/engines.list
	@{ echo '/* written by make from the folders drivers/NAME/ (see the Makefile) */'; \
	   echo '#include "../drivers/driver.h"'; \
	   $(foreach e,$(ENGINES),echo 'extern const bb_driver bb_driver_$e;';) \
	   echo 'const bb_driver *const bb_drivers[] = {'; \
	   $(foreach e,$(ENGINES),echo '    &bb_driver_$e,';) \
	   echo '    NULL'; echo '};'; } > $@

build/engines.o: build/engines.c
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

build/embed.o: build/embed.c
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# a fuzz target links the library without Lua (libFuzzer brings its own main)
FUZZ_BIN := $(patsubst tests/fuzz/%.c,build/%,$(wildcard tests/fuzz/fuzz_*.c))
fuzzers: $(FUZZ_BIN)
build/fuzz_%: tests/fuzz/fuzz_%.c build/libbulkbench.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(CORE_LIBS)

# a unit test of a core module (tests/unit/test_NAME.c) links the library without Lua, as the fuzz targets do
UNIT_BIN := $(patsubst tests/unit/%.c,build/%,$(wildcard tests/unit/test_*.c))
units: $(UNIT_BIN)
build/test_%: tests/unit/test_%.c build/libbulkbench.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(CORE_LIBS)

deps:
	@missing=$$(for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

quickstart: deps
	@$(MAKE) -s -j$(JOBS) all
	./bulkbench run workloads/quickstart.lua --method=insert,txn,multirow --batch=1,100,1000

test:
	@$(MAKE) -s -j$(JOBS) all
	@tests/run.sh --quick

check: deps
	@$(MAKE) -s -j$(JOBS) all
	@tests/run.sh

# The whole suite on an ASan + UBSan build of a copy of the tree (./bulkbench stays as it is).
sanitize: deps
	@tests/sanitize.sh

bench: deps
	@$(MAKE) -s -j$(JOBS) all
	@contrib/bench.sh

docs: deps
	@$(MAKE) -s -j$(JOBS) all
	@python3 contrib/docref.py
	@python3 contrib/docs.py

FUZZ_TIME ?= 60
fuzz: deps
	@tests/fuzz.sh $(FUZZ_TIME)

soak: deps
	@$(MAKE) -s -j$(JOBS) all
	@tests/soak.sh

clean:
	rm -rf build bulkbench

.PHONY: FORCE all units deps quickstart test check sanitize bench docs fuzz fuzzers soak clean
