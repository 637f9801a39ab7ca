// Speed through the C ABI: two liblz4.so builds (this library's and liblz4's) loaded side by
// side with dlopen and timed in turn in one process, so that a shared machine's drift falls on
// both alike. For each file:
//   - LZ4_decompress_safe of its 64 KiB blocks (compressed by the second library's
//     LZ4_compress_default);
//   - LZ4F_decompress of the whole frame (LZ4F_compressFrame with default preferences: linked
//     64 KiB blocks, no checksum) in one call;
//   - LZ4_compress_default of the 64 KiB blocks.
// Prints the second library's best time over the first's (above 1: the first is faster), and
// the first library's speeds.
//
//   cc -O2 -o abibench capi/tests/c/abibench.c -ldl
//   ./abibench OURS/liblz4.so.1 LIBLZ4/liblz4.so.1 ROUNDS FILE...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK 65536
#define ROOM (BLOCK + BLOCK / 255 + 16)

typedef int (*compress_t)(const char *, char *, int, int);
typedef int (*decompress_t)(const char *, char *, int, int);
typedef size_t (*frame_t)(void *, size_t, const void *, size_t, const void *);
typedef size_t (*frame_bound_t)(size_t, const void *);
typedef size_t (*create_t)(void **, unsigned);
typedef size_t (*frame_decompress_t)(void *, void *, size_t *, const void *, size_t *,
                                     const void *);
typedef void (*reset_t)(void *);

struct lib {
    compress_t compress;
    decompress_t decompress;
    frame_t frame;
    frame_bound_t frame_bound;
    frame_decompress_t frame_decompress;
    reset_t reset;
    void *dctx;
};

static void *symbol(void *handle, const char *name) {
    void *f = dlsym(handle, name);
    if (!f) {
        fprintf(stderr, "abibench: no %s\n", name);
        exit(1);
    }
    return f;
}

static void load(struct lib *l, const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "abibench: %s\n", dlerror());
        exit(1);
    }
    l->compress = (compress_t)symbol(h, "LZ4_compress_default");
    l->decompress = (decompress_t)symbol(h, "LZ4_decompress_safe");
    l->frame = (frame_t)symbol(h, "LZ4F_compressFrame");
    l->frame_bound = (frame_bound_t)symbol(h, "LZ4F_compressFrameBound");
    l->frame_decompress = (frame_decompress_t)symbol(h, "LZ4F_decompress");
    l->reset = (reset_t)symbol(h, "LZ4F_resetDecompressionContext");
    create_t create = (create_t)symbol(h, "LZ4F_createDecompressionContext");
    if (create(&l->dctx, 100) != 0) {
        fprintf(stderr, "abibench: no decompression context\n");
        exit(1);
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t block_len(size_t n, size_t i) { return (i + 1) * BLOCK > n ? n - i * BLOCK : BLOCK; }

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: abibench OURS.so LIBLZ4.so ROUNDS FILE...\n");
        return 2;
    }
    struct lib libs[2];
    load(&libs[0], argv[1]);
    load(&libs[1], argv[2]);
    int rounds = atoi(argv[3]);
    for (int arg = 4; arg < argc; arg++) {
        FILE *f = fopen(argv[arg], "rb");
        if (!f) {
            perror(argv[arg]);
            return 1;
        }
        fseek(f, 0, SEEK_END);
        size_t n = (size_t)ftell(f);
        fseek(f, 0, SEEK_SET);
        char *src = malloc(n);
        if (fread(src, 1, n, f) != n) {
            fprintf(stderr, "abibench: short read of %s\n", argv[arg]);
            return 1;
        }
        fclose(f);
        size_t blocks = (n + BLOCK - 1) / BLOCK;
        char *packed = malloc(blocks * ROOM);
        int *packed_len = malloc(blocks * sizeof(int));
        size_t *packed_at = malloc(blocks * sizeof(size_t));
        size_t pos = 0;
        for (size_t i = 0; i < blocks; i++) {
            packed_at[i] = pos;
            packed_len[i] = libs[1].compress(src + i * BLOCK, packed + pos, (int)block_len(n, i), ROOM);
            pos += (size_t)packed_len[i];
        }
        size_t frame_room = libs[1].frame_bound(n, NULL);
        char *frame = malloc(frame_room);
        size_t frame_len = libs[1].frame(frame, frame_room, src, n, NULL);
        char *out = malloc(n + 64);
        char *scratch = malloc(ROOM);
        double best[2][3] = {{1e9, 1e9, 1e9}, {1e9, 1e9, 1e9}};
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                // Each round starts with the other library.
                struct lib *l = &libs[(r & 1) ? 1 - k : k];
                int which = l == &libs[0] ? 0 : 1;
                double t0 = now();
                for (size_t i = 0; i < blocks; i++) {
                    int len = (int)block_len(n, i);
                    if (l->decompress(packed + packed_at[i], out + i * BLOCK, packed_len[i], len) != len) {
                        fprintf(stderr, "abibench: LZ4_decompress_safe failed\n");
                        return 1;
                    }
                }
                double t1 = now();
                l->reset(l->dctx);
                size_t out_len = n + 64, in_len = frame_len;
                size_t hint = l->frame_decompress(l->dctx, out, &out_len, frame, &in_len, NULL);
                double t2 = now();
                if (hint != 0 || out_len != n || memcmp(out, src, n) != 0) {
                    fprintf(stderr, "abibench: LZ4F_decompress failed\n");
                    return 1;
                }
                double t3 = now();
                for (size_t i = 0; i < blocks; i++) {
                    l->compress(src + i * BLOCK, scratch, (int)block_len(n, i), ROOM);
                }
                double t4 = now();
                double times[3] = {t1 - t0, t2 - t1, t4 - t3};
                for (int m = 0; m < 3; m++) {
                    if (times[m] < best[which][m]) best[which][m] = times[m];
                }
            }
        }
        printf("%-10s LZ4_decompress_safe %.3f  LZ4F_decompress %.3f  LZ4_compress_default %.3f"
               "  (first: %.0f / %.0f / %.0f MB/s)\n",
               argv[arg], best[1][0] / best[0][0], best[1][1] / best[0][1], best[1][2] / best[0][2],
               n / best[0][0] / 1e6, n / best[0][1] / 1e6, n / best[0][2] / 1e6);
        free(src);
        free(packed);
        free(packed_len);
        free(packed_at);
        free(frame);
        free(out);
        free(scratch);
    }
    return 0;
}
