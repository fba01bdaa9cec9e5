/* A power cut's memory, for the durability tests (tests/powercut/test_powercut.py).
 *
 * Loaded with LD_PRELOAD into a process whose database files start with the path in
 * POWERCUT_PREFIX. Before each write, pwrite or ftruncate of such a file it appends
 * to that file's undo log (POWERCUT_UNDO/<name>.undo) the bytes about to be
 * overwritten and the file's size: what the disk would still hold if the power went
 * now. An fsync or fdatasync of the file empties its log: from then on the data is
 * on the platter. Replaying a log backwards after a kill -9 gives the files as a
 * power cut at that instant would have left them. The -shm file is skipped: it is a
 * memory map that SQLite rebuilds from the WAL on open, and the cut deletes it.
 *
 * The libsqlite3 this was written against calls open64, pwrite64, write, ftruncate64,
 * fdatasync and close; their other-width twins and fsync are caught as well. The undo
 * log itself goes through raw system calls, so the shim never sees its own writes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_FD 4096
#define MAX_FILES 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int file_of_fd[MAX_FD];      /* 1 + index into undo_fds, 0: not ours */
static char names[MAX_FILES][512];  /* the database files seen, by path */
static int undo_fds[MAX_FILES];
static int file_count;

static int ours(const char *path) {
    const char *prefix = getenv("POWERCUT_PREFIX");
    size_t n = strlen(path);
    if (prefix == NULL || strncmp(path, prefix, strlen(prefix)) != 0) return 0;
    return !(n >= 4 && strcmp(path + n - 4, "-shm") == 0);
}

static void fail(const char *what) {
    char text[256];
    int n = snprintf(text, sizeof text, "powercut shim: %s failed (errno %d)\n", what, errno);
    syscall(SYS_write, 2, text, (size_t)n);
    abort();
}

static int file_index(const char *path) {
    for (int i = 0; i < file_count; i++)
        if (strcmp(names[i], path) == 0) return i;
    if (file_count == MAX_FILES) fail("too many files");
    const char *dir = getenv("POWERCUT_UNDO");
    const char *base = strrchr(path, '/');
    char undo[1024];
    snprintf(undo, sizeof undo, "%s/%s.undo", dir ? dir : ".", base ? base + 1 : path);
    int fd = (int)syscall(SYS_openat, AT_FDCWD, undo, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
                          0644);
    if (fd < 0) fail("opening an undo log");
    snprintf(names[file_count], sizeof names[0], "%s", path);
    undo_fds[file_count] = fd;
    return file_count++;
}

static void track(int fd, const char *path) {
    if (fd < 0 || fd >= MAX_FD || !ours(path)) return;
    pthread_mutex_lock(&lock);
    file_of_fd[fd] = 1 + file_index(path);
    pthread_mutex_unlock(&lock);
}

static void append(int undo, const void *data, size_t size) {
    const char *p = data;
    while (size > 0) {
        ssize_t n = syscall(SYS_write, undo, p, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("writing an undo log");
        p += n;
        size -= (size_t)n;
    }
}

/* Record what [offset, offset + count) and the size hold now. Called with `lock` held. */
static void remember(int fd, int64_t offset, int64_t count) {
    struct stat st;
    if (fstat(fd, &st) != 0) fail("fstat");
    int64_t size = st.st_size;
    int64_t kept = offset < size ? (count < size - offset ? count : size - offset) : 0;
    if (kept < 0) kept = 0;
    char *old = malloc(kept ? (size_t)kept : 1);
    if (old == NULL) fail("malloc");
    for (int64_t done = 0; done < kept;) {
        ssize_t n = syscall(SYS_pread64, fd, old + done, (size_t)(kept - done), offset + done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("reading the old bytes");
        done += n;
    }
    int64_t header[3] = {offset, kept, size};
    int undo = undo_fds[file_of_fd[fd] - 1];
    append(undo, header, sizeof header);
    append(undo, old, (size_t)kept);
    free(old);
}

static int tracked(int fd) { return fd >= 0 && fd < MAX_FD && file_of_fd[fd] != 0; }

/* The libc function this one stands in front of, found once. */
#define REAL(name) \
    static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static int opened(int fd, const char *path) {
    if (fd >= 0) track(fd, path);
    return fd;
}

static mode_t mode_of(int flags, va_list args) {
    return (flags & (O_CREAT | __O_TMPFILE)) ? (mode_t)va_arg(args, int) : 0;
}

int open(const char *path, int flags, ...) {
    REAL(open);
    va_list args;
    va_start(args, flags);
    mode_t mode = mode_of(flags, args);
    va_end(args);
    return opened(real_open(path, flags, mode), path);
}

int open64(const char *path, int flags, ...) {
    REAL(open64);
    va_list args;
    va_start(args, flags);
    mode_t mode = mode_of(flags, args);
    va_end(args);
    return opened(real_open64(path, flags, mode), path);
}

int close(int fd) {
    REAL(close);
    if (tracked(fd)) {
        pthread_mutex_lock(&lock);
        file_of_fd[fd] = 0;
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}

static ssize_t logged_pwrite(int fd, const void *buf, size_t count, off_t offset,
                             __typeof__(pwrite) *real) {
    if (!tracked(fd)) return real(fd, buf, count, offset);
    pthread_mutex_lock(&lock);
    remember(fd, offset, (int64_t)count);
    ssize_t n = real(fd, buf, count, offset);
    pthread_mutex_unlock(&lock);
    return n;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite);
    return logged_pwrite(fd, buf, count, offset, real_pwrite);
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite64);
    return logged_pwrite(fd, buf, count, offset, real_pwrite64);
}

ssize_t write(int fd, const void *buf, size_t count) {
    REAL(write);
    if (!tracked(fd)) return real_write(fd, buf, count);
    pthread_mutex_lock(&lock);
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0) fail("lseek");
    remember(fd, at, (int64_t)count);
    ssize_t n = real_write(fd, buf, count);
    pthread_mutex_unlock(&lock);
    return n;
}

static int logged_truncate(int fd, off_t length, __typeof__(ftruncate) *real) {
    if (!tracked(fd)) return real(fd, length);
    pthread_mutex_lock(&lock);
    remember(fd, length, INT64_MAX / 2); /* the bytes cut off, if it shrinks */
    int r = real(fd, length);
    pthread_mutex_unlock(&lock);
    return r;
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate);
    return logged_truncate(fd, length, real_ftruncate);
}

int ftruncate64(int fd, off_t length) {
    REAL(ftruncate64);
    return logged_truncate(fd, length, real_ftruncate64);
}

/* On the platter once the sync returns: the file's undo log starts over. */
static int logged_sync(int fd, int (*real)(int)) {
    if (!tracked(fd)) return real(fd);
    pthread_mutex_lock(&lock);
    int r = real(fd);
    if (r == 0 && syscall(SYS_ftruncate, undo_fds[file_of_fd[fd] - 1], 0) != 0)
        fail("clearing an undo log");
    pthread_mutex_unlock(&lock);
    return r;
}

int fsync(int fd) {
    REAL(fsync);
    return logged_sync(fd, real_fsync);
}

int fdatasync(int fd) {
    REAL(fdatasync);
    return logged_sync(fd, real_fdatasync);
}
