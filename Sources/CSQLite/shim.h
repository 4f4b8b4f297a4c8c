#ifndef QUARRY_CSQLITE_SHIM_H
#define QUARRY_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro Swift cannot import: SQLite copies the bound value.
static inline sqlite3_destructor_type quarry_sqlite_transient(void) {
  return (sqlite3_destructor_type)-1;
}

/// sqlite3_db_config is C-variadic; wrap the one call Quarry needs.
static inline int quarry_sqlite_disable_extension_loading(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
}
#endif
