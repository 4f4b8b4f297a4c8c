#ifndef QUARRY_CEDITLINE_SHIM_H
#define QUARRY_CEDITLINE_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <locale.h>
#include <editline/readline.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/// Swift 6 rejects the C stdio globals; hand them out through functions.
static inline FILE *quarry_stdin(void) { return stdin; }
static inline FILE *quarry_stdout(void) { return stdout; }
static inline FILE *quarry_stderr(void) { return stderr; }

/// Start-up: the user's locale, so libedit accepts non-ASCII input.
static inline void quarry_editline_setup(const char *name) {
  setlocale(LC_ALL, "");
  rl_readline_name = strdup(name);  // libedit keeps the pointer
}
/// SIGINT without SA_RESTART, so a blocked read returns and the prompt can start over.
static inline void quarry_install_sigint(void (*handler)(int)) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, NULL);
}

/// Access to libedit's completion globals (Swift 6 rejects mutable C globals).
static inline void quarry_set_completion(char **(*function)(const char *, int, int)) {
  rl_attempted_completion_function = function;
}
static inline void quarry_completion_over(void) { rl_attempted_completion_over = 1; }
static inline const char *quarry_line_buffer(void) { return rl_line_buffer; }
static inline int quarry_point(void) { return rl_point; }

/// The characters that end the word being completed. In DSL a `.` does (`$0.ti` completes
/// `ti`, and candidates list as plain names); on a meta-command line it does not (`.sch`,
/// `.open data.sq`), where a `/` does, so file names list without their folder.
static inline char *quarry_word_breaks(void) {
  static char dsl[] = " \t\n\"\\'`@$><=;|&{(.,)[]!+-*/%?:";
  static char meta[] = " \t\n\"\\'`@$><=;|&{(/";
  const char *line = rl_line_buffer ? rl_line_buffer : "";
  while (*line == ' ' || *line == '\t') line++;
  return *line == '.' ? meta : dsl;
}
/// libedit asks the hook for the word breaks each time Tab completes (its line buffer is
/// current then), and fails on a NULL `rl_completer_word_break_characters`.
static inline void quarry_set_word_breaks(void) {
  rl_completion_word_break_hook = quarry_word_breaks;
  rl_completer_word_break_characters = quarry_word_breaks();
  rl_completion_append_character = 0;  // `$0.title` is usually followed by `.`, not a space
}
#endif
