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
#include <errno.h>
#include <poll.h>

/// Swift 6 rejects the C stdio globals; hand them out through functions.
static inline FILE *quarry_stdin(void) { return stdin; }
static inline FILE *quarry_stdout(void) { return stdout; }
static inline FILE *quarry_stderr(void) { return stderr; }

/// Bracketed paste. The terminal wraps pasted text in ESC[200~ … ESC[201~ (once the prompt
/// has sent ESC[?2004h). libedit knows nothing of it, so Quarry reads keys itself: the text
/// between the markers is kept (line breaks and tabs as text, never Enter or Tab completion) and
/// put into the edit buffer whole at the end marker. The whole paste is then one input, run when
/// Enter is pressed (as IPython does).
#define QUARRY_PENDING_MAX 1024
/// The key Ctrl-W reaches libedit as (Ctrl-]), bound to Quarry's word deletion.
#define QUARRY_DELETE_WORD_KEY 0x1D
/// The key Quarry hands libedit, when the typist pauses, to colour the line (Ctrl-^, bound to
/// Quarry's redraw).
#define QUARRY_COLOUR_KEY 0x1E
/// The key Quarry hands libedit to run one of its own actions (Up, Down, the end of a paste):
/// Ctrl-\, which never arrives as a key (the terminal turns it into SIGQUIT). A key above 0x7F
/// cannot be bound: libedit spells it `M-…` and reads that as a sequence.
#define QUARRY_ACTION_KEY 0x1C
/// The key Quarry hands libedit to draw the edit buffer again (libedit's ed-redisplay): Ctrl-C,
/// which never arrives as a key either (SIGINT).
#define QUARRY_REDISPLAY_KEY 0x03
struct quarry_key_state {
  int pending[QUARRY_PENDING_MAX];  // keys to hand libedit before reading more
  int pending_count;
  int in_paste;
  int last_was_return;
  void (*colour_hook)(void);  // draws the line again in colour; NULL: no colour while typing
  int colour_due;             // the last key changed the text, and was a whole key
  int escape_state;           // 1 after ESC, 2 inside ESC [ … or ESC O …
  int search_keys_pending;    // keys the history search queued (a redisplay, Ctrl-E)
  int action;                 // what the action key does next (QUARRY_ACTION_…)
  char *paste;                // the text of the paste being read
  size_t paste_length, paste_capacity;
};
/// Text to type into the edit buffer before reading the terminal (`.edit`), or NULL.
static inline char **quarry_prefill(void) {
  static char *text = NULL;
  return &text;
}
static inline size_t *quarry_prefill_offset(void) {
  static size_t offset = 0;
  return &offset;
}

/// The key reader's state (a static local: a header's globals are not emitted for Swift).
static inline struct quarry_key_state *quarry_keys(void) {
  static struct quarry_key_state state;
  return &state;
}
#define quarry_pending (quarry_keys()->pending)
#define quarry_pending_count (quarry_keys()->pending_count)
#define quarry_in_paste (quarry_keys()->in_paste)
#define quarry_last_was_return (quarry_keys()->last_was_return)

/// Set by the SIGINT handler (Ctrl-C): the one signal that ends a read. Cleared before each
/// prompt.
/// Set by the SIGQUIT handler (Ctrl-\), which ends nothing: the read goes on.
static inline volatile sig_atomic_t *quarry_sigquit_flag(void) {
  static volatile sig_atomic_t flag = 0;
  return &flag;
}
static inline void quarry_sigquit_handler(int signal) { (void)signal; *quarry_sigquit_flag() = 1; }
static inline void quarry_install_sigquit(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = quarry_sigquit_handler;
  sigemptyset(&action.sa_mask);
  sigaction(SIGQUIT, &action, NULL);
}
static inline volatile sig_atomic_t *quarry_sigint_flag(void) {
  static volatile sig_atomic_t flag = 0;
  return &flag;
}

/// Bytes read ahead from the terminal to look at the next pasted line, given back to the key
/// reader before anything else is read.
struct quarry_pushback_state {
  unsigned char bytes[8192];
  int start;
  int count;
};
static inline struct quarry_pushback_state *quarry_pushback(void) {
  static struct quarry_pushback_state state;
  return &state;
}

/// One byte from the terminal; -1 at end of input or when Ctrl-C interrupted the read. Any
/// other signal that interrupts it (a resize's SIGWINCH, SIGCONT after Ctrl-Z and `fg`) is not
/// the end of anything: libedit's own handler has taken the new size or put the terminal back
/// in raw mode, the line is drawn again, and the read goes on.
static inline int quarry_read_byte(void) {
  struct quarry_pushback_state *pushback = quarry_pushback();
  if (pushback->start < pushback->count) return pushback->bytes[pushback->start++];
  char **prefill = quarry_prefill();
  if (*prefill) {
    size_t *offset = quarry_prefill_offset();
    unsigned char next = (unsigned char)(*prefill)[*offset];
    if (next) {
      (*offset)++;
      return next;
    }
    free(*prefill);
    *prefill = NULL;
    *offset = 0;
  }
  unsigned char byte;
  for (;;) {
    ssize_t count = read(0, &byte, 1);
    if (count == 1) return byte;
    if (count < 0 && errno == EINTR && !*quarry_sigint_flag()) {
      // Ctrl-\ (SIGQUIT) does nothing at the prompt; libedit's handler left the terminal cooked.
      if (*quarry_sigquit_flag()) {
        *quarry_sigquit_flag() = 0;
        rl_prep_terminal(1);
      }
      // Back to the start of the row, cleared, and the prompt and line drawn there again.
      (void)!write(1, "\r\033[K", 4);
      rl_forced_update_display();
      continue;
    }
    return -1;
  }
}

/// Whether the next bytes (already typed or pasted) are `rest`; consumed when they are. Bytes
/// that do not match are queued for libedit as they were.
static inline int quarry_match(const char *rest, int *unmatched, int *unmatched_count) {
  for (int i = 0; rest[i]; i++) {
    int byte = quarry_read_byte();
    if (byte < 0) return 0;
    unmatched[(*unmatched_count)++] = byte;
    if (byte != (unsigned char)rest[i]) return 0;
  }
  return 1;
}

/// A Unicode scalar from UTF-8 bytes (libedit's getc hook returns whole characters).
static inline int quarry_read_scalar(int first) {
  if (first < 0x80) return first;
  int extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0;
  int value = first & (0x3F >> extra);
  for (int i = 0; i < extra; i++) {
    int byte = quarry_read_byte();
    if (byte < 0) return -1;
    value = (value << 6) | (byte & 0x3F);
  }
  return value;
}

/// What the action key (below) does when libedit reads it.
enum { QUARRY_ACTION_NONE, QUARRY_ACTION_OLDER, QUARRY_ACTION_NEWER, QUARRY_ACTION_INSERT };

/// Text arriving inside paste markers, kept until the end marker and then put into the edit
/// buffer at once, drawn by libedit's full redisplay: libedit draws a line break typed into the
/// buffer key by key at the wrong row (its fast path for a character added at the end), and every
/// later edit of those rows then lands below them.
static inline int quarry_paste_append(unsigned char byte) {
  struct quarry_key_state *keys = quarry_keys();
  if (keys->paste_length + 2 > keys->paste_capacity) {
    size_t capacity = keys->paste_capacity ? keys->paste_capacity * 2 : 4096;
    char *grown = realloc(keys->paste, capacity);
    if (!grown) return 0;  // out of memory: the rest of the paste is dropped
    keys->paste = grown;
    keys->paste_capacity = capacity;
  }
  keys->paste[keys->paste_length++] = (char)byte;
  keys->paste[keys->paste_length] = 0;
  return 1;
}

/// A paste cut short (Ctrl-C before its end marker) is dropped before the next prompt: the keys
/// typed there are keys again.
static inline void quarry_paste_reset(void) {
  struct quarry_key_state *keys = quarry_keys();
  keys->in_paste = 0;
  free(keys->paste);
  keys->paste = NULL;
  keys->paste_length = keys->paste_capacity = 0;
}

/// The action key's next action, and the key that asks libedit to run it.
static inline int quarry_action_key(int action) {
  quarry_keys()->action = action;
  return QUARRY_ACTION_KEY;
}

static inline int quarry_next_key(void) {
  if (quarry_pending_count > 0) {
    int value = quarry_pending[0];
    for (int i = 1; i < quarry_pending_count; i++) quarry_pending[i - 1] = quarry_pending[i];
    quarry_pending_count--;
    return value;
  }
  char **prefill = quarry_prefill();
  if (*prefill) {
    // `.edit`'s text goes into the buffer as a paste does.
    for (const char *c = *prefill + *quarry_prefill_offset(); *c; c++) quarry_paste_append((unsigned char)*c);
    free(*prefill);
    *prefill = NULL;
    *quarry_prefill_offset() = 0;
    return quarry_action_key(QUARRY_ACTION_INSERT);
  }
  for (;;) {
    int byte = quarry_read_byte();
    if (byte < 0) return -1;
    int after_return = quarry_last_was_return;
    quarry_last_was_return = byte == '\r';
    if (quarry_in_paste) {
      if (byte == 0x1B) {
        int unmatched[8];
        int count = 0;
        if (quarry_match("[201~", unmatched, &count)) {
          quarry_in_paste = 0;
          return quarry_action_key(QUARRY_ACTION_INSERT);
        }
        // Not the end marker: text, as pasted (an escape itself is not kept).
        for (int i = 0; i < count; i++) if (unmatched[i] >= 0x20 && unmatched[i] != 0x7F) quarry_paste_append((unsigned char)unmatched[i]);
        continue;
      }
      if (byte == '\n' && after_return) continue;  // CR LF is one line break
      if (byte == '\r') byte = '\n';
      // Line breaks and tabs are text; other control characters are not kept.
      if (byte >= 0x20 ? byte != 0x7F : (byte == '\n' || byte == '\t')) quarry_paste_append((unsigned char)byte);
      continue;
    }
    if (byte == 0x1B) {
      int unmatched[8];
      int count = 0;
      // Up and Down (ESC [ A, ESC O A; B) reach libedit as the action key: Quarry's history search.
      int first = quarry_read_byte();
      if (first >= 0) unmatched[count++] = first;
      if (first == '[' || first == 'O') {
        int second = quarry_read_byte();
        if (second >= 0) unmatched[count++] = second;
        if (second == 'A') return quarry_action_key(QUARRY_ACTION_OLDER);
        if (second == 'B') return quarry_action_key(QUARRY_ACTION_NEWER);
        if (first == '[' && second == '2' && quarry_match("00~", unmatched, &count)) {
          quarry_in_paste = 1;
          continue;
        }
      }
      // An ordinary escape sequence (another key): handed on unchanged.
      for (int i = 0; i < count && quarry_pending_count < QUARRY_PENDING_MAX; i++) quarry_pending[quarry_pending_count++] = unmatched[i];
      return byte;
    }
    if (byte == 0x17) {
      // Ctrl-W: libedit binds the terminal's word-erase key itself each time it sets the terminal
      // up, over any binding of ours; it reaches Quarry's own word deletion under another key.
      return QUARRY_DELETE_WORD_KEY;
    }
    return quarry_read_scalar(byte);
  }
}

/// Whether `key` ends a key that may have changed the text, after which the line may be coloured:
/// not an arrow or another escape sequence (Up and Down keep searching by what was typed only
/// while nothing runs between them), not Tab (a second Tab lists the candidates), not Ctrl-V (its
/// next key is read as text), not Enter.
static inline int quarry_key_allows_colour(int key) {
  struct quarry_key_state *keys = quarry_keys();
  if (key == 0x1B) { keys->escape_state = 1; return 0; }
  if (keys->escape_state == 1) { keys->escape_state = (key == '[' || key == 'O') ? 2 : 0; return 0; }
  if (keys->escape_state == 2) { if (key >= 0x40 && key <= 0x7E) keys->escape_state = 0; return 0; }
  return key >= 0 && key != '\t' && key != 0x16 && key != '\r' && key != '\n' && key != 0x12 && key != QUARRY_COLOUR_KEY;
}

/// Up and Down: the history entries holding what was typed before the cursor when the search
/// began (every entry when nothing was), newest first, each shown once; Down past the newest gives
/// back what was typed. Quarry's own search rather than libedit's, which starts over after any
/// other command — the colour key between two presses included.
struct quarry_history_search_state {
  char *pattern;  // NULL: no search under way
  char *typed;    // the whole line when the search began
  int index;      // the entry shown (0 = oldest); history_length: the typed line
};
static inline struct quarry_history_search_state *quarry_history_search(void) {
  static struct quarry_history_search_state state;
  return &state;
}
static inline void quarry_history_search_end(void) {
  struct quarry_history_search_state *search = quarry_history_search();
  free(search->pattern);
  free(search->typed);
  search->pattern = NULL;
  search->typed = NULL;
}

/// libedit's getc hook: the next key, or — when the typist has paused after changing the text
/// and nothing is waiting — the colour key first, so the line is coloured while it waits. Any key
/// but Up, Down and the colour key ends a history search.
static inline int quarry_getc(FILE *stream) {
  (void)stream;
  struct quarry_key_state *keys = quarry_keys();
  if (keys->colour_hook && keys->colour_due && quarry_pending_count == 0 && !*quarry_prefill()) {
    struct pollfd poller = { .fd = 0, .events = POLLIN, .revents = 0 };
    if (poll(&poller, 1, 0) == 0) {
      keys->colour_due = 0;
      return QUARRY_COLOUR_KEY;
    }
  }
  int key = quarry_next_key();
  keys->colour_due = quarry_key_allows_colour(key);
  if (key == QUARRY_COLOUR_KEY) return key;
  if (keys->search_keys_pending > 0) {
    keys->search_keys_pending--;
  } else if (!(key == QUARRY_ACTION_KEY && (keys->action == QUARRY_ACTION_OLDER || keys->action == QUARRY_ACTION_NEWER))) {
    quarry_history_search_end();
  }
  return key;
}

/// Up (`step` -1) or Down (+1) through the history entries that hold the search's text.
static inline int quarry_history_step(int step) {
  struct quarry_history_search_state *search = quarry_history_search();
  const char *line = rl_line_buffer ? rl_line_buffer : "";
  if (!search->pattern) {
    if (step > 0) return 0;  // nothing is newer than the line being typed
    size_t length = strlen(line);
    size_t point = rl_point < 0 ? 0 : (size_t)rl_point;
    search->pattern = strndup(line, point < length ? point : length);
    search->typed = strdup(line);
    search->index = history_length;
    if (!search->pattern || !search->typed) { quarry_history_search_end(); return 0; }
  }
  int index = search->index + step;
  const char *text = NULL;
  for (; index >= 0 && index < history_length; index += step) {
    HIST_ENTRY *entry = history_get(history_base + index);
    if (entry && entry->line && strstr(entry->line, search->pattern) && strcmp(entry->line, line) != 0) {
      text = entry->line;
      break;
    }
  }
  if (!text) {
    if (step < 0) return 0;  // nothing older holds it: the line stays
    text = search->typed;
    index = history_length;
  }
  search->index = index;
  if (quarry_pending_count + 3 > QUARRY_PENDING_MAX) return 0;
  // An empty line is a space taken back with Backspace: libedit's replace ignores an empty text,
  // and its delete never reaches the last character.
  rl_replace_line(text[0] ? text : " ", 0);
  // libedit draws the new text over the old, every row of it (its redisplay, under a key of its
  // own), and does not read rl_point back: Ctrl-E puts its cursor at the end of the text.
  quarry_pending[quarry_pending_count++] = QUARRY_REDISPLAY_KEY;
  quarry_pending[quarry_pending_count++] = 0x05;
  quarry_keys()->search_keys_pending = 2;
  if (!text[0]) {
    quarry_pending[quarry_pending_count++] = 0x7F;
    quarry_keys()->search_keys_pending = 3;
  }
  return 0;
}
/// The action key's command: the history search, or the paste put into the buffer at the cursor
/// and drawn again whole.
static inline int quarry_action(int count, int key) {
  (void)count; (void)key;
  struct quarry_key_state *keys = quarry_keys();
  int action = keys->action;
  keys->action = QUARRY_ACTION_NONE;
  if (action == QUARRY_ACTION_OLDER) return quarry_history_step(-1);
  if (action == QUARRY_ACTION_NEWER) return quarry_history_step(1);
  if (action == QUARRY_ACTION_INSERT && keys->paste) {
    if (keys->paste_length > 0) rl_insert_text(keys->paste);
    free(keys->paste);
    keys->paste = NULL;
    keys->paste_length = keys->paste_capacity = 0;
    if (quarry_pending_count < QUARRY_PENDING_MAX) quarry_pending[quarry_pending_count++] = QUARRY_REDISPLAY_KEY;
  }
  return 0;
}

/// The colour key's command: the hook draws; libedit draws nothing after it (CC_NORM).
static inline int quarry_colour_line(int count, int key) {
  (void)count; (void)key;
  void (*hook)(void) = quarry_keys()->colour_hook;
  if (hook) hook();
  return 0;
}
static inline void quarry_set_colour_hook(void (*hook)(void)) { quarry_keys()->colour_hook = hook; }

/// Ctrl-R: search the history for what is typed, newest first, on a line that says what it is:
/// `(reverse-i-search)'tag': Tag.order(by: \.title)`. Ctrl-R again finds an older match, Ctrl-S
/// a newer one, Backspace shortens the search. Enter runs the match; Esc, an arrow or another
/// control key keeps it in the edit buffer to change (the key then does what it always does);
/// Ctrl-G or Ctrl-C puts back the line as it was. (libedit's own search shows a bare `bck:`.)
static inline int quarry_terminal_columns(void) {
  struct winsize size;
  if (ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 80;
}
static inline int quarry_terminal_rows(void) {
  struct winsize size;
  if (ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
  return 24;
}

/// The history entry at `index` (0 = oldest) that contains `query`, searching from `index`
/// towards older entries (`step` -1) or newer ones (`step` +1); -1 when there is none.
static inline int quarry_history_find(const char *query, int index, int step) {
  for (; index >= 0 && index < history_length; index += step) {
    HIST_ENTRY *entry = history_get(history_base + index);
    if (entry && entry->line && strstr(entry->line, query)) return index;
  }
  return -1;
}

static inline void quarry_search_draw(const char *query, const char *match, int failed) {
  int columns = quarry_terminal_columns();
  char line[4096];
  int length = snprintf(line, sizeof line, "\r\033[K(%sreverse-i-search)'%s': ", failed ? "failed " : "", query);
  if (length < 0 || length >= (int)sizeof line) length = (int)sizeof line - 1;
  int width = length - 4;  // "\r\033[K" takes no room
  // The match on one line: line breaks drawn as ↵, cut to the terminal's width.
  for (const unsigned char *c = (const unsigned char *)(match ? match : ""); *c && length < (int)sizeof line - 8; c++) {
    if ((*c & 0xC0) != 0x80) {  // the first byte of a character
      if (width >= columns - 4) {  // room for "..." and the cursor: the line never wraps
        line[length++] = '.'; line[length++] = '.'; line[length++] = '.';
        break;
      }
      width++;
    }
    if (*c == '\n') {
      memcpy(line + length, "\xe2\x86\xb5", 3);  // ↵
      length += 3;
    } else if (*c == '\t') {
      line[length++] = ' ';
    } else {
      line[length++] = (char)*c;
    }
  }
  (void)!write(1, line, (size_t)length);
}

static inline int quarry_reverse_search(int count, int key) {
  (void)count; (void)key;
  char *original = strdup(rl_line_buffer ? rl_line_buffer : "");
  char query[256] = "";
  size_t query_length = 0;
  int found = -1;       // the entry shown
  int failed = 0;
  int accept = 0;       // 0 cancel, 1 keep to edit, 2 run
  int passed_key = -1;  // a key libedit should see after the search
  int ended = 0;        // the read failed: Ctrl-C's signal, or the end of input
  quarry_search_draw(query, "", 0);
  for (;;) {
    int byte = quarry_read_byte();
    if (byte < 0) { ended = 1; break; }  // Ctrl-C (a signal) or the end of input
    if (byte == 0x07 || byte == 0x03) break;  // Ctrl-G, Ctrl-C as a key
    if (byte == '\r' || byte == '\n') { accept = 2; break; }
    if (byte == 0x12 || byte == 0x13) {  // Ctrl-R older, Ctrl-S newer
      if (query_length == 0) continue;
      int start = found < 0 ? history_length - 1 : found + (byte == 0x12 ? -1 : 1);
      int next = quarry_history_find(query, start, byte == 0x12 ? -1 : 1);
      if (next >= 0) { found = next; failed = 0; } else { failed = 1; }
    } else if (byte == 0x7F || byte == 0x08) {
      if (query_length > 0) {
        do { query_length--; } while (query_length > 0 && ((unsigned char)query[query_length] & 0xC0) == 0x80);
        query[query_length] = 0;
      }
      found = query_length ? quarry_history_find(query, history_length - 1, -1) : -1;
      failed = query_length && found < 0;
    } else if (byte == 0x1B || byte < 0x20) {
      accept = 1;
      // A lone Esc only ends the search; the start of an arrow key's sequence (its other
      // bytes arrive with it) goes on to libedit whole.
      struct pollfd poller = { .fd = 0, .events = POLLIN, .revents = 0 };
      if (byte != 0x1B || poll(&poller, 1, 25) > 0) passed_key = byte;
      break;
    } else {
      if (query_length < sizeof query - 1) {
        query[query_length++] = (char)byte;
        query[query_length] = 0;
      }
      if ((byte & 0xC0) == 0x80 || byte >= 0xC0) {
        // Part of a multi-byte character: search once it is whole.
        int expected = (unsigned char)query[query_length - 1] >= 0xC0 ? 1 : 0;
        if (expected) continue;
      }
      int from = found < 0 ? history_length - 1 : found;
      int next = quarry_history_find(query, from, -1);
      if (next >= 0) { found = next; failed = 0; } else { failed = 1; }
    }
    HIST_ENTRY *entry = found >= 0 ? history_get(history_base + found) : NULL;
    quarry_search_draw(query, entry && entry->line ? entry->line : "", failed);
  }
  (void)!write(1, "\r\033[K", 4);
  HIST_ENTRY *entry = (accept && found >= 0) ? history_get(history_base + found) : NULL;
  if (entry && entry->line && entry->line[0]) {
    rl_replace_line(entry->line, 0);
  } else if (original[0]) {
    rl_replace_line(original, 0);
  } else {
    rl_delete_text(0, rl_end);
  }
  free(original);
  rl_forced_update_display();
  // libedit does not read rl_point back: Ctrl-E puts its cursor at the end of the text.
  quarry_pending[quarry_pending_count++] = 0x05;
  if (accept == 2 && entry) quarry_pending[quarry_pending_count++] = '\r';
  if (passed_key >= 0 && quarry_pending_count < QUARRY_PENDING_MAX) quarry_pending[quarry_pending_count++] = passed_key;
  if (ended) quarry_pending[quarry_pending_count++] = -1;  // libedit sees it as the prompt would
  return 0;
}

/// Ctrl-W: deletes the shell word before the cursor, as a shell does: back to the whitespace
/// before it that is outside quotes (`$0.title.eq("a b")` is one word), trailing whitespace
/// first. Done as that many Backspaces, which libedit draws as it always does.
static inline int quarry_delete_shell_word(int count, int key) {
  (void)count; (void)key;
  const char *line = rl_line_buffer ? rl_line_buffer : "";
  int end = rl_point;
  int length = (int)strlen(line);
  if (end > length) end = length;
  int stop = end;
  while (stop > 0 && (line[stop - 1] == ' ' || line[stop - 1] == '\t')) stop--;
  int start = 0;
  char quote = 0;
  for (int i = 0; i < stop; i++) {
    char c = line[i];
    if (quote) {
      if (c == '\\' && quote == '"') { i++; continue; }
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ' ' || c == '\t') {
      start = i + 1;
    }
  }
  int characters = 0;
  for (int i = start; i < end; i++) {
    if (((unsigned char)line[i] & 0xC0) != 0x80) characters++;
  }
  for (int i = 0; i < characters && quarry_pending_count < QUARRY_PENDING_MAX; i++) quarry_pending[quarry_pending_count++] = 0x7F;
  return 0;
}

/// Start-up: the user's locale, so libedit accepts non-ASCII input; Quarry's own key reader.
static inline void quarry_editline_setup(const char *name) {
  setlocale(LC_ALL, "");
  rl_readline_name = strdup(name);  // libedit keeps the pointer
  rl_getc_function = quarry_getc;
}

/// Up and Down search the history by what is typed before the cursor (as fish, zsh and IPython
/// do); with nothing typed they step through it. The edited-text hook is installed too.
static inline void quarry_bind_keys(void) {
  rl_add_defun("quarry-action", quarry_action, QUARRY_ACTION_KEY);
  rl_parse_and_bind("bind ^C ed-redisplay");
  rl_add_defun("quarry-reverse-search", quarry_reverse_search, 0x12);
  rl_add_defun("quarry-delete-shell-word", quarry_delete_shell_word, QUARRY_DELETE_WORD_KEY);
  rl_add_defun("quarry-colour-line", quarry_colour_line, QUARRY_COLOUR_KEY);
}

/// Whether more input is already waiting (lines arriving faster than typing: a paste).
static inline int quarry_input_pending(void) {
  if (quarry_pending_count > 0) return 1;
  if (quarry_pushback()->start < quarry_pushback()->count) return 1;
  struct pollfd poller = { .fd = 0, .events = POLLIN, .revents = 0 };
  return poll(&poller, 1, 0) > 0;
}
/// The next line already pasted (up to its line break, not included) into `out`, read ahead and
/// kept for the key reader: 1 when a whole line is there; 0 when it is not yet, or holds an
/// escape sequence (keys, paste markers), or keys are queued already — nothing is known then.
static inline int quarry_peek_line(char *out, int max) {
  struct quarry_pushback_state *pushback = quarry_pushback();
  if (quarry_pending_count > 0 || *quarry_prefill() || max < 1) return 0;
  if (pushback->start > 0) {
    memmove(pushback->bytes, pushback->bytes + pushback->start, (size_t)(pushback->count - pushback->start));
    pushback->count -= pushback->start;
    pushback->start = 0;
  }
  for (;;) {
    for (int i = 0; i < pushback->count; i++) {
      unsigned char byte = pushback->bytes[i];
      if (byte == '\r' || byte == '\n') {
        int length = i < max - 1 ? i : max - 1;
        memcpy(out, pushback->bytes, (size_t)length);
        out[length] = 0;
        return 1;
      }
      if (byte == 0x1B) return 0;
    }
    if (pushback->count >= (int)sizeof pushback->bytes) return 0;
    // The rest of a pasted line arrives within moments.
    struct pollfd poller = { .fd = 0, .events = POLLIN, .revents = 0 };
    if (poll(&poller, 1, 20) <= 0) return 0;
    ssize_t count = read(0, pushback->bytes + pushback->count, sizeof pushback->bytes - (size_t)pushback->count);
    if (count <= 0) return 0;
    pushback->count += (int)count;
  }
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
