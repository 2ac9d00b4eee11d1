# dbctl_memory.sh — `dbctl start pg|mysql --memory=SIZE` (sourced by contrib/dbctl, not run): the
# server runs in a memory cgroup of its own, page cache included, with buffers that fit inside it,
# so that a table many times the server's memory is reached with a few GB (docs/scale.md).
#
# cgroup v2 where one is mounted with the memory controller (memory.max), v1 otherwise
# (memory.limit_in_bytes). The cgroup is made beside the others at the hierarchy's root, named
# after dbctl's directory and the engine, and removed when the server stops. Its path is kept in
# $d/cgroup, the limit in bytes in $d/memory. Making one needs root (or a delegated hierarchy):
# without it dbctl says so in one line and starts nothing.

# mem_bytes SIZE: 160M, 2G, 512k, 1048576 -> bytes (IEC: M = 2^20), or nothing when it is not a size
mem_bytes() {
  local v=${1^^}
  v=${v%B}; v=${v%I}
  case $v in
    *[0-9]K) echo $((${v%K} << 10)) ;;
    *[0-9]M) echo $((${v%M} << 20)) ;;
    *[0-9]G) echo $((${v%G} << 30)) ;;
    *[0-9]) [[ $v =~ ^[0-9]+$ ]] && echo "$v" ;;
  esac
}

# the mount point of the hierarchy that holds memory: "v2 PATH" or "v1 PATH", nothing when none
mem_hierarchy() {
  local dev mnt type opts rest
  while read -r dev mnt type opts rest; do
    if [ "$type" = cgroup2 ] && grep -qw memory "$mnt/cgroup.controllers" 2>/dev/null; then echo "v2 $mnt"; return; fi
  done </proc/mounts
  while read -r dev mnt type opts rest; do
    if [ "$type" = cgroup ] && [[ ,$opts, == *,memory,* ]]; then echo "v1 $mnt"; return; fi
  done </proc/mounts
}

# mem_cgroup_make NAME BYTES: makes the cgroup, sets its limit and prints its directory; one line
# on stderr and a failure when it cannot
mem_cgroup_make() {
  local name=$1 bytes=$2 h ver root cg
  h=$(mem_hierarchy)
  [ -n "$h" ] || { echo "dbctl: --memory: no cgroup hierarchy with the memory controller is mounted (/proc/mounts)" >&2; return 1; }
  ver=${h%% *}; root=${h#* }; cg=$root/$name
  [ -d "$cg" ] && rmdir "$cg" 2>/dev/null # a stopped server's, left behind
  if ! mkdir -p "$cg" 2>/dev/null; then
    echo "dbctl: --memory: cannot make a memory cgroup under $root (it needs root or a delegated cgroup)" >&2
    return 1
  fi
  if [ "$ver" = v2 ]; then
    grep -qw memory "$root/cgroup.subtree_control" 2>/dev/null || echo +memory >"$root/cgroup.subtree_control" 2>/dev/null
    echo 0 >"$cg/memory.swap.max" 2>/dev/null # the limit is memory, not memory and swap
    echo "$bytes" >"$cg/memory.max" 2>/dev/null
  else
    echo "$bytes" >"$cg/memory.limit_in_bytes" 2>/dev/null
    # memory and swap together no more than the memory alone (absent without swap accounting)
    [ -w "$cg/memory.memsw.limit_in_bytes" ] && echo "$bytes" >"$cg/memory.memsw.limit_in_bytes" 2>/dev/null
  fi
  local got
  got=$(cat "$cg/memory.max" "$cg/memory.limit_in_bytes" 2>/dev/null | head -1)
  if [ "$got" != "$bytes" ] && ! { [[ $got =~ ^[0-9]+$ ]] && [ "$got" -le "$bytes" ]; }; then
    rmdir "$cg" 2>/dev/null
    echo "dbctl: --memory: cannot set the limit of $cg (it reads ${got:-nothing})" >&2
    return 1
  fi
  echo "$cg"
}

# mem_cgroup_name ENGINE: one cgroup per dbctl directory and engine
mem_cgroup_name() { echo "bulkbench-$(printf %s "$DIR" | md5sum | cut -c1-8)-$1"; }

# mem_in DIR COMMAND...: runs the command with its process in the cgroup (what it starts inherits it)
mem_in() {
  local cg=$1; shift
  ( echo "$BASHPID" >"$cg/cgroup.procs" && "$@" )
}

# mem_prefix D: the words to put before a server's start command: mem_in and the cgroup when the
# server at D was started with --memory, nothing otherwise
mem_prefix() { [ -f "$1/cgroup" ] && echo "mem_in $(cat "$1/cgroup")"; return 0; }

# mem_setup D ENGINE SIZE: the cgroup for the server at D (its path and limit kept in D); fails
# with one line when SIZE is no size or the cgroup cannot be made
mem_setup() {
  local d=$1 e=$2 bytes cg
  bytes=$(mem_bytes "$3")
  [ -n "$bytes" ] && [ "$bytes" -ge $((64 << 20)) ] || { echo "dbctl: --memory=$3: a size of at least 64M (160M, 2G) expected" >&2; return 1; }
  cg=$(mem_cgroup_make "$(mem_cgroup_name "$e")" "$bytes") || return 1
  echo "$cg" >"$d/cgroup"; echo "$bytes" >"$d/memory"
  MEM_STARTING=$d # a start that dies from here on removes the cgroup (die)
}

# mem_agrees ENGINE D: the server running at D is held to what start asks (--memory or none)
mem_agrees() {
  local want="" have=""
  [ -z "$MEMORY" ] || want=$(mem_bytes "$MEMORY")
  [ -f "$2/memory" ] && have=$(cat "$2/memory")
  [ "$want" = "$have" ] && return 0
  if [ -n "$have" ]; then die "a $1 server held to $((have >> 20))M runs in $2: dbctl stop $1 first"; fi
  die "a $1 server not held to a memory size runs in $2: dbctl stop $1 first"
}

# mem_remove D: removes the cgroup of the server at D once its processes are gone
mem_remove() {
  [ -f "$1/cgroup" ] || return 0
  local cg; cg=$(cat "$1/cgroup")
  for _ in $(seq 20); do rmdir "$cg" 2>/dev/null && return 0; [ -d "$cg" ] || return 0; sleep 0.25; done
  echo "dbctl: the cgroup $cg still holds processes; left in place" >&2
}

# Buffers that fit: a fifth of the memory for the server's own cache (the issue's 32 MB of 160 MB),
# the rest for its processes and the page cache the limit counts too.
mem_pg_conf() { # BYTES
  local mb=$(($1 >> 20))
  cat <<CONF
# --memory=${mb}MB: buffers that fit inside the cgroup
shared_buffers = $((mb / 5))MB
effective_cache_size = $((mb / 2))MB
maintenance_work_mem = $((mb / 10))MB
work_mem = 4MB
CONF
}
mem_mysql_conf() { # BYTES
  local mb=$(($1 >> 20))
  cat <<CONF
# --memory=${mb}MB: buffers that fit inside the cgroup, data files past the page cache
innodb_buffer_pool_size = $((mb / 5))M
innodb_flush_method = O_DIRECT
innodb_log_buffer_size = 8M
key_buffer_size = 8M
aria_pagecache_buffer_size = 8M
innodb_sort_buffer_size = 1M
CONF
}
