/* An LD_PRELOAD shim for BSD cribbage(6) (Debian bsdgames), written for kortbord's bridge
 * (bench/bsd_cribbage.py): the referee decides the deal, and the bridge learns when the program waits for a key
 * and what it showed meanwhile.  Compiled at run time with gcc into a temporary directory.
 *
 *   rand() / srand()  rand() returns the next number of the file $KB_DRAWS (whitespace-separated integers), so
 *                     the program's shuffle, its cut for the first crib and its cut of the starter take the cards
 *                     the referee chose; srand() does nothing.  When the file runs out the program ends (status
 *                     97) rather than deal cards nobody chose.
 *   read(0, ...)      before a read of the keyboard that would block, "R" is written to the FIFO $KB_LOG: the
 *                     program has shown everything and waits for the bridge.
 *   subwin()          remembers the program's windows in the order it makes them (its hand, the table, the
 *                     computer's hand, the messages).
 *   wrefresh()        after a refresh of one of the first three windows, "H <window> <cards>" is logged: the card
 *                     faces drawn in it in order ("??" for a card drawn face down).
 *   waddnstr()        text written into the message window is logged as "M <text>".
 *   mvprintw()        text printed on the screen by row and column (the scores on the board) is logged as
 *                     "S <row> <column> <text>", then printed as before.
 *
 * Nothing else changes: the shim only reads the windows (restoring their cursors) and writes to its own FIFO.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The few ncurses calls the shim makes, declared here so that only the C library's headers are needed (ncurses 6:
 * chtype is 32 bits, A_CHARTEXT its low byte); the program's own ncurses provides them at run time. */
typedef struct _win_st WINDOW;
typedef unsigned int chtype;
#define A_CHARTEXT 0xffU
#define ERR (-1)
extern WINDOW *stdscr;
extern int wmove(WINDOW *, int, int);
extern chtype winch(WINDOW *);
extern int getcury(const WINDOW *);
extern int getcurx(const WINDOW *);
extern int getmaxy(const WINDOW *);
extern int getmaxx(const WINDOW *);
extern int vw_printw(WINDOW *, const char *, va_list);

static chtype at(WINDOW *w, int y, int x) { return wmove(w, y, x) == ERR ? 0 : winch(w); }

static FILE *draws;
static int logfd = -1;
static WINDOW *wins[8];
static int nwins;

static void say(const char *text, size_t n) {
    if (logfd < 0) {
        const char *path = getenv("KB_LOG");
        if (path == NULL || (logfd = open(path, O_WRONLY)) < 0)
            return;
    }
    while (n > 0) {
        ssize_t k = write(logfd, text, n);
        if (k <= 0)
            return;
        text += k;
        n -= (size_t)k;
    }
}

int rand(void) {
    long value;
    if (draws == NULL) {
        const char *path = getenv("KB_DRAWS");
        draws = path ? fopen(path, "r") : NULL;
    }
    if (draws == NULL || fscanf(draws, "%ld", &value) != 1) {
        say("E draws exhausted\n", 18);
        _exit(97);
    }
    return (int)value;
}

void srand(unsigned int seed) { (void)seed; }

ssize_t read(int fd, void *buf, size_t n) {
    static ssize_t (*real)(int, void *, size_t);
    if (real == NULL)
        real = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    if (fd == 0) {
        struct pollfd p = {0, POLLIN, 0};
        if (poll(&p, 1, 0) == 0)
            say("R\n", 2);
    }
    return real(fd, buf, n);
}

WINDOW *subwin(WINDOW *orig, int lines, int cols, int y, int x) {
    static WINDOW *(*real)(WINDOW *, int, int, int, int);
    if (real == NULL)
        real = (WINDOW * (*)(WINDOW *, int, int, int, int)) dlsym(RTLD_NEXT, "subwin");
    WINDOW *w = real(orig, lines, cols, y, x);
    if (nwins < 8)
        wins[nwins++] = w;
    return w;
}

static int which(const WINDOW *w) {
    for (int i = 0; i < nwins; i++)
        if (wins[i] == w)
            return i;
    return -1;
}

/* The cards of a window drawn as the program draws a hand: card i's box has its corner at (2i, i) and, face up,
 * its rank and suit at (2i + 1, i + 1). */
static void dump_cards(WINDOW *w, int index) {
    char line[128];
    int cy, cx, n, i;
    cy = getcury(w);
    cx = getcurx(w);
    n = snprintf(line, sizeof line, "H %d", index);
    for (i = 0; i < 14 && 2 * i + 1 < getmaxy(w) && i + 2 < getmaxx(w); i++) {
        if ((at(w, 2 * i, i) & A_CHARTEXT) != '+')
            break;
        char r = (char)(at(w, 2 * i + 1, i + 1) & A_CHARTEXT);
        char s = (char)(at(w, 2 * i + 1, i + 2) & A_CHARTEXT);
        if (r == ' ')
            r = s = '?';
        n += snprintf(line + n, sizeof line - (size_t)n, " %c%c", r, s);
    }
    wmove(w, cy, cx);
    line[n++] = '\n';
    say(line, (size_t)n);
}

int wrefresh(WINDOW *w) {
    static int (*real)(WINDOW *);
    if (real == NULL)
        real = (int (*)(WINDOW *))dlsym(RTLD_NEXT, "wrefresh");
    int r = real(w);
    int i = which(w);
    if (i >= 0 && i < 3)
        dump_cards(w, i);
    return r;
}

int waddnstr(WINDOW *w, const char *text, int n) {
    static int (*real)(WINDOW *, const char *, int);
    if (real == NULL)
        real = (int (*)(WINDOW *, const char *, int))dlsym(RTLD_NEXT, "waddnstr");
    if (nwins >= 4 && w == wins[3] && text != NULL) {
        char line[512];
        size_t len = strlen(text);
        if (n >= 0 && (size_t)n < len)
            len = (size_t)n;
        if (len > sizeof line - 4)
            len = sizeof line - 4;
        line[0] = 'M';
        line[1] = ' ';
        for (size_t k = 0; k < len; k++)
            line[2 + k] = (text[k] == '\n' || text[k] == '\r') ? ' ' : text[k];
        line[2 + len] = '\n';
        say(line, len + 3);
    }
    return real(w, text, n);
}

int mvprintw(int y, int x, const char *fmt, ...) {
    char line[256];
    va_list ap;
    int n, r;
    va_start(ap, fmt);
    n = snprintf(line, sizeof line, "S %d %d ", y, x);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    say(line, (size_t)n);
    if (wmove(stdscr, y, x) == ERR)
        return ERR;
    va_start(ap, fmt);
    r = vw_printw(stdscr, fmt, ap);
    va_end(ap);
    return r;
}
