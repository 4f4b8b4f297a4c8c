#ifndef QUARRY_CEDITLINE_SHIM_H
#define QUARRY_CEDITLINE_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <editline/readline.h>

/// Swift 6 rejects the C stdio globals; hand them out through functions.
static inline FILE *quarry_stdin(void) { return stdin; }
static inline FILE *quarry_stdout(void) { return stdout; }
static inline FILE *quarry_stderr(void) { return stderr; }

/// Start-up: the user's locale, so libedit accepts non-ASCII input.
static inline void quarry_editline_setup(const char *name) {
  setlocale(LC_ALL, "");
  rl_readline_name = name;
}
#endif
