/*
 * A C program against liblz4's API: round trips through every exported block function, then a
 * digest line per call (return values and an FNV-1a hash of the output), so that two builds of
 * the library can be compared by their output. The frame API: its error names, sizes and layouts. Exit status 0 when every round trip held.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The static-linking-only part of lz4.h too: the in-place margins. */
#define LZ4_STATIC_LINKING_ONLY
#include "lz4.h"
/* And of lz4hc.h: LZ4_resetStreamHC_fast (LZ4_setCompressionLevel is not exported by
   liblz4.so.1: the level is set by the resets). */
#define LZ4_HC_STATIC_LINKING_ONLY
#include "lz4hc.h"
/* And of lz4frame.h: the error codes. */
#define LZ4F_STATIC_LINKING_ONLY
#include "lz4frame.h"

static int failures = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "smoke: line %d: %s\n", __LINE__, #cond);      \
            failures++;                                                    \
        }                                                                  \
    } while (0)

static uint32_t fnv1a(const char* p, int n) {
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 16777619u;
    return h;
}

/* Text with repeats, then noise: compressible but not trivial. */
static void fill(char* p, int n, uint32_t seed) {
    static const char* words[] = {"lz4 ", "block ", "frame ", "dictionary ", "stream ", "\n"};
    int i = 0;
    while (i < n) {
        seed = seed * 1103515245u + 12345u;
        const char* w = words[(seed >> 16) % 6];
        for (const char* c = w; *c && i < n; c++) p[i++] = (seed >> 24) < 16 ? (char)(seed >> 8) : *c;
    }
}

static void one(int n) {
    char* src = malloc(n + 1);
    int bound = LZ4_compressBound(n);
    char* dst = malloc(bound + 1);
    char* back = malloc(n + 1);
    fill(src, n, (uint32_t)n);

    int c = LZ4_compress_default(src, dst, n, bound);
    CHECK(c > 0);
    printf("default %d %d %08x\n", n, c, fnv1a(dst, c));
    int d = LZ4_decompress_safe(dst, back, c, n);
    CHECK(d == n && memcmp(src, back, n) == 0);
    CHECK(LZ4_decompress_safe(dst, back, c - 1, n) < 0 || n == 0);

    int fr = LZ4_decompress_fast(dst, back, n);
    CHECK(fr == c && memcmp(src, back, n) == 0);
    printf("decompressFast %d %d\n", n, fr);

    /* Independent blocks are valid stream blocks: decode two halves through a stream. */
    {
        int h1 = n / 2, h2 = n - n / 2;
        char* b1 = malloc(LZ4_compressBound(h1) + 1);
        char* b2 = malloc(LZ4_compressBound(h2) + 1);
        int c1 = LZ4_compress_default(src, b1, h1, LZ4_compressBound(h1));
        int c2 = LZ4_compress_default(src + h1, b2, h2, LZ4_compressBound(h2));
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int r1 = LZ4_decompress_safe_continue(&sd, b1, back, c1, h1);
        int r2 = LZ4_decompress_safe_continue(&sd, b2, back + (r1 > 0 ? r1 : 0), c2, h2);
        CHECK(r1 + r2 == n && memcmp(src, back, n) == 0);
        printf("continue %d %d %d\n", n, r1, r2);
        free(b1);
        free(b2);
    }

    int f = LZ4_compress_fast(src, dst, n, bound, 8);
    printf("fast8 %d %d %08x\n", n, f, fnv1a(dst, f));
    CHECK(LZ4_decompress_safe(dst, back, f, n) == n && memcmp(src, back, n) == 0);

    void* state = malloc(LZ4_sizeofState());
    int e = LZ4_compress_fast_extState(state, src, dst, n, bound, 1);
    CHECK(e == c);
    free(state);

    int limited = LZ4_compress_default(src, dst, n, c / 2);
    printf("limited %d %d\n", n, limited);

    int consumed = n;
    int ds = LZ4_compress_destSize(src, dst, &consumed, 100);
    printf("destSize %d %d %d %08x\n", n, ds, consumed, fnv1a(dst, ds));
    CHECK(LZ4_decompress_safe(dst, back, ds, n) == consumed && memcmp(src, back, consumed) == 0);

    int p = LZ4_decompress_safe_partial(dst, back, ds, 10, n);
    printf("partial %d %d\n", n, p);

    for (int level = 1; level <= 12; level += 3) {
        int h = LZ4_compress_HC(src, dst, n, bound, level);
        printf("hc%d %d %d %08x\n", level, n, h, fnv1a(dst, h));
        CHECK(LZ4_decompress_safe(dst, back, h, n) == n && memcmp(src, back, n) == 0);
    }
    void* hc_state = malloc(LZ4_sizeofStateHC());
    consumed = n;
    int hds = LZ4_compress_HC_destSize(hc_state, src, dst, &consumed, 200, 9);
    printf("hcDestSize %d %d %d %08x\n", n, hds, consumed, fnv1a(dst, hds));
    int hx = LZ4_compress_HC_extStateHC(hc_state, src, dst, n, bound, 12);
    printf("hcExtState %d %d %08x\n", n, hx, fnv1a(dst, hx));
    free(hc_state);

    /* A dictionary: the first half of the input compresses the second. */
    int half = n / 2;
    int dc = LZ4_compress_default(src + half, dst, n - half, bound);
    int dd = LZ4_decompress_safe_usingDict(dst, back, dc, n - half, src, half);
    CHECK(dd == n - half && memcmp(src + half, back, n - half) == 0);
    printf("usingDict %d %d\n", n, dd);

    /* In place, in buffers of the sizes lz4.h gives: a block stored at the end of its output
       buffer decoded to the start, and an input stored at the end of its output buffer
       compressed to the start. */
    {
        int c0 = LZ4_compress_default(src, dst, n, bound);
        int dsize = LZ4_DECOMPRESS_INPLACE_BUFFER_SIZE(n);
        char* dbuf = malloc(dsize + 1);
        memcpy(dbuf + dsize - c0, dst, c0);
        int di = LZ4_decompress_safe(dbuf + dsize - c0, dbuf, c0, n);
        CHECK(di == n && memcmp(src, dbuf, n) == 0);
        int csize = LZ4_COMPRESS_INPLACE_BUFFER_SIZE(bound);
        char* cbuf = malloc(csize + 1);
        memcpy(cbuf + csize - n, src, n);
        int ci = LZ4_compress_default(cbuf + csize - n, cbuf, n, bound);
        CHECK(ci == c0 && memcmp(cbuf, dst, c0) == 0);
        printf("inPlace %d %d %d %d\n", n, di, ci, LZ4_DISTANCE_MAX);
        free(dbuf);
        free(cbuf);
    }

    free(src);
    free(dst);
    free(back);
}

/* HC streaming compression at `level`: the same n bytes as a stream of blocks in four layouts
   (consecutive slices with the state on the stack, a ring buffer, one buffer reused with
   LZ4_saveDictHC, a dictionary stream attached to each block), decoded back. */
static void hc_streams(int n, int block, int level) {
    char* src = malloc(n + 1);
    char* back = malloc(n + 1);
    int bound = LZ4_compressBound(block);
    char* dst = malloc(bound + 1);
    fill(src, n, (uint32_t)n * 11u);
    uint32_t digest = 2166136261u;

    /* Consecutive slices. */
    {
        static LZ4_streamHC_t st;
        LZ4_streamHC_t* s = LZ4_initStreamHC(&st, sizeof st);
        CHECK(s == &st);
        LZ4_resetStreamHC_fast(s, level);
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int ok = 1;
        for (int at = 0; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            int c = LZ4_compress_HC_continue(s, src + at, dst, len, bound);
            CHECK(c > 0);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(&sd, dst, back + at, c, len);
            ok &= d == len;
        }
        CHECK(ok && memcmp(src, back, n) == 0);
        printf("hcStreamPrefix %d %d %d %08x\n", n, block, level, digest);
    }

    /* A ring buffer of 64 KiB + a block. */
    {
        int ring_len = 65536 + block;
        char* ring = malloc(ring_len);
        char* out = malloc(ring_len);
        LZ4_streamHC_t* s = LZ4_createStreamHC();
        LZ4_resetStreamHC_fast(s, level);
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int pos = 0, ok = 1;
        for (int at = 0; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            if (pos + len > ring_len) pos = 0;
            memcpy(ring + pos, src + at, len);
            int c = LZ4_compress_HC_continue(s, ring + pos, dst, len, bound);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(&sd, dst, out + pos, c, len);
            ok &= d == len && memcmp(out + pos, src + at, len) == 0;
            pos += len;
        }
        CHECK(ok);
        printf("hcStreamRing %d %d %d %08x\n", n, block, level, digest);
        LZ4_freeStreamHC(s);
        free(ring);
        free(out);
    }

    /* One input buffer reused, its history saved after each block (the older names too). */
    {
        char* in = malloc(block + 1);
        char* saved = malloc(65536);
        LZ4_streamHC_t* s = LZ4_createStreamHC();
        LZ4_resetStreamHC(s, level);
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int ok = 1;
        for (int at = 0, i = 0; at < n; at += block, i++) {
            int len = n - at < block ? n - at : block;
            memcpy(in, src + at, len);
            int c = i % 2 ? LZ4_compressHC_continue(s, in, dst, len)
                          : LZ4_compressHC_limitedOutput_continue(s, in, dst, len, bound);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(&sd, dst, back + at, c, len);
            ok &= d == len;
            int k = LZ4_saveDictHC(s, saved, 65536);
            ok &= k == (len < 4 ? 0 : len < 65536 ? len : 65536);
        }
        CHECK(ok && memcmp(src, back, n) == 0);
        printf("hcStreamSaveDict %d %d %d %08x\n", n, block, level, digest);
        LZ4_freeStreamHC(s);
        free(in);
        free(saved);
    }

    /* A dictionary stream attached to each block (after LZ4_resetStreamHC_fast), decoded with
       the dictionary; then the dictionary loaded, and a page filled by destSize. */
    {
        int dict_len = n / 4;
        LZ4_streamHC_t* dict = LZ4_createStreamHC();
        LZ4_resetStreamHC(dict, level);
        int loaded = LZ4_loadDictHC(dict, src, dict_len);
        CHECK(loaded == (dict_len > 65536 ? 65536 : dict_len));
        static LZ4_streamHC_t st;
        LZ4_initStreamHC(&st, sizeof st);
        int ok = 1;
        for (int at = dict_len; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            LZ4_resetStreamHC_fast(&st, level);
            LZ4_attach_HC_dictionary(&st, dict);
            int c = LZ4_compress_HC_continue(&st, src + at, dst, len, bound);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_usingDict(dst, back, c, len, src, dict_len);
            ok &= d == len && memcmp(back, src + at, len) == 0;
        }
        CHECK(ok);
        printf("hcStreamAttach %d %d %d %08x\n", n, block, level, digest);
        LZ4_freeStreamHC(dict);
        LZ4_resetStreamHC_fast(&st, level);
        CHECK(LZ4_loadDictHC(&st, src, dict_len) == loaded);
        int consumed = n - dict_len;
        int c = LZ4_compress_HC_continue_destSize(&st, src + dict_len, dst, &consumed, block / 3 + 1);
        int d = c > 0 ? LZ4_decompress_safe_usingDict(dst, back, c, consumed, src, dict_len) : -1;
        CHECK(c == 0 || (d == consumed && memcmp(back, src + dict_len, consumed) == 0));
        printf("hcStreamDestSize %d %d %d %d %d %08x\n", n, block, level, c, consumed,
               fnv1a(dst, c > 0 ? c : 0));
    }

    /* Too small an output: 0, and the stream goes on (reset first: it is dirty). */
    {
        static LZ4_streamHC_t st;
        LZ4_initStreamHC(&st, sizeof st);
        LZ4_resetStreamHC_fast(&st, level);
        int len = n < block ? n : block;
        int z = LZ4_compress_HC_continue(&st, src, dst, len, len / 4);
        int c = LZ4_compress_HC_continue(&st, src + len, dst, n - len < block ? n - len : block, bound);
        LZ4_resetStreamHC_fast(&st, level);
        int r = LZ4_compress_HC_continue(&st, src, dst, len, bound);
        printf("hcStreamLimited %d %d %d %d %d %d %08x\n", n, block, level, z, c, r,
               fnv1a(dst, r > 0 ? r : 0));
    }
    CHECK(LZ4_initStreamHC(back, LZ4_STREAMHC_MINSIZE - 1) == NULL);

    free(src);
    free(back);
    free(dst);
}

/* Streaming compression: the same n bytes as a stream of blocks in four layouts (consecutive
   slices of one buffer, a ring buffer, separate buffers with LZ4_saveDict, and a dictionary
   attached to each block), decoded back through LZ4_decompress_safe_continue. */
static void streams(int n, int block) {
    char* src = malloc(n + 1);
    char* back = malloc(n + 1);
    int bound = LZ4_compressBound(block);
    char* dst = malloc(bound + 1);
    fill(src, n, (uint32_t)n * 7u);
    uint32_t digest = 2166136261u;

    /* Consecutive slices, the state on the stack. */
    {
        LZ4_stream_t st;
        LZ4_stream_t* s = LZ4_initStream(&st, sizeof st);
        CHECK(s == &st);
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int total = 0;
        for (int at = 0; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            int c = LZ4_compress_fast_continue(s, src + at, dst, len, bound, 1 + at % 3);
            CHECK(c > 0);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(&sd, dst, back + at, c, len);
            CHECK(d == len);
            total += d > 0 ? d : 0;
        }
        CHECK(total == n && memcmp(src, back, n) == 0);
        printf("streamPrefix %d %d %08x\n", n, block, digest);
    }

    /* A ring buffer of 64 KiB + a block, decoded into a ring of the same size. */
    {
        int ring_len = 65536 + block;
        char* ring = malloc(ring_len);
        char* out = malloc(ring_len);
        LZ4_stream_t* s = LZ4_createStream();
        LZ4_streamDecode_t* sd = LZ4_createStreamDecode();
        int pos = 0, ok = 1;
        for (int at = 0; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            if (pos + len > ring_len) pos = 0;
            memcpy(ring + pos, src + at, len);
            int c = LZ4_compress_fast_continue(s, ring + pos, dst, len, bound, 1);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(sd, dst, out + pos, c, len);
            ok &= d == len && memcmp(out + pos, src + at, len) == 0;
            pos += len;
        }
        CHECK(ok);
        printf("streamRing %d %d %08x\n", n, block, digest);
        LZ4_freeStream(s);
        LZ4_freeStreamDecode(sd);
        free(ring);
        free(out);
    }

    /* One input buffer reused, its history saved after each block (the obsolete names too). */
    {
        char* in = malloc(block + 1);
        char* saved = malloc(65536);
        LZ4_stream_t st;
        LZ4_initStream(&st, sizeof st);
        LZ4_streamDecode_t sd;
        LZ4_setStreamDecode(&sd, NULL, 0);
        int ok = 1;
        for (int at = 0, i = 0; at < n; at += block, i++) {
            int len = n - at < block ? n - at : block;
            memcpy(in, src + at, len);
            int c = i % 2 ? LZ4_compress_continue(&st, in, dst, len)
                          : LZ4_compress_limitedOutput_continue(&st, in, dst, len, bound);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_continue(&sd, dst, back + at, c, len);
            ok &= d == len;
            int k = LZ4_saveDict(&st, saved, 65536);
            ok &= k == (len < 65536 ? len : 65536);
        }
        CHECK(ok && memcmp(src, back, n) == 0);
        printf("streamSaveDict %d %d %08x\n", n, block, digest);
        free(in);
        free(saved);
    }

    /* A dictionary stream attached to each block (after LZ4_resetStream_fast), decoded with
       the dictionary. */
    {
        int dict_len = n / 4;
        LZ4_stream_t* dict = LZ4_createStream();
        int loaded = LZ4_loadDictSlow(dict, src, dict_len);
        CHECK(loaded == (dict_len < 8 ? 0 : dict_len > 65536 ? 65536 : dict_len));
        LZ4_stream_t st;
        LZ4_initStream(&st, sizeof st);
        int ok = 1;
        for (int at = dict_len; at < n; at += block) {
            int len = n - at < block ? n - at : block;
            LZ4_resetStream_fast(&st);
            LZ4_attach_dictionary(&st, dict);
            int c = LZ4_compress_fast_continue(&st, src + at, dst, len, bound, 1);
            digest = (digest ^ fnv1a(dst, c)) * 16777619u;
            int d = LZ4_decompress_safe_usingDict(dst, back, c, len, src, dict_len);
            ok &= d == len && memcmp(back, src + at, len) == 0;
        }
        CHECK(ok);
        printf("streamAttach %d %d %08x\n", n, block, digest);
        LZ4_freeStream(dict);
        CHECK(LZ4_loadDict(&st, src, dict_len) == loaded);
        printf("streamLoadDict %d %d\n", n, LZ4_compress_fast_continue(&st, src + dict_len, dst, n - dict_len < block ? n - dict_len : block, bound, 1));
    }

    /* Too small an output: 0, and the stream goes on. */
    {
        LZ4_stream_t st;
        LZ4_initStream(&st, sizeof st);
        int len = n < block ? n : block;
        int z = LZ4_compress_fast_continue(&st, src, dst, len, len / 4, 1);
        int c = LZ4_compress_fast_continue(&st, src + len, dst, n - len < block ? n - len : block, bound, 1);
        printf("streamLimited %d %d %d %d %08x\n", n, block, z, c, fnv1a(dst, c > 0 ? c : 0));
    }
    char small[LZ4_STREAM_MINSIZE + 8];
    CHECK(LZ4_initStream(small, LZ4_STREAM_MINSIZE - 1) == NULL);

    free(src);
    free(back);
    free(dst);
}

/* LZ4F_compressFrame at a level and block size, then LZ4F_decompress of the frame whole. */
static void frame_round_trip(int n, int level, LZ4F_blockSizeID_t id, LZ4F_blockMode_t mode) {
    char* src = malloc(n + 1);
    fill(src, n, (uint32_t)n * 3u);
    LZ4F_preferences_t prefs = LZ4F_INIT_PREFERENCES;
    prefs.frameInfo.blockSizeID = id;
    prefs.frameInfo.blockMode = mode;
    prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
    prefs.frameInfo.contentSize = 1;
    prefs.compressionLevel = level;
    size_t bound = LZ4F_compressFrameBound((size_t)n, &prefs);
    char* framed = malloc(bound);
    size_t c = LZ4F_compressFrame(framed, bound, src, (size_t)n, &prefs);
    CHECK(!LZ4F_isError(c));
    CHECK(LZ4F_isError(LZ4F_compressFrame(framed, bound - 1, src, (size_t)n, &prefs)));
    printf("lz4f compressFrame %d %d %d %d %zu %zu %zu %08x\n", n, level, (int)id, (int)mode, bound,
           LZ4F_compressBound((size_t)n, &prefs), c, fnv1a(framed, (int)c));
    /* The same frame by a context, in updates of 10000 bytes with a flush after the second. */
    LZ4F_cctx* cctx = NULL;
    CHECK(LZ4F_createCompressionContext(&cctx, LZ4F_VERSION) == 0);
    char* streamed = malloc(bound + 2 * LZ4F_compressBound(10000, &prefs) + 64);
    prefs.frameInfo.contentSize = (unsigned long long)n;
    size_t s = LZ4F_compressBegin(cctx, streamed, LZ4F_HEADER_SIZE_MAX, &prefs);
    CHECK(!LZ4F_isError(s));
    for (int at = 0, i = 0; at < n; at += 10000, i++) {
        size_t len = n - at < 10000 ? (size_t)(n - at) : 10000;
        size_t r = LZ4F_compressUpdate(cctx, streamed + s, LZ4F_compressBound(len, &prefs), src + at, len, NULL);
        CHECK(!LZ4F_isError(r));
        s += r;
        if (i == 1) {
            r = LZ4F_flush(cctx, streamed + s, LZ4F_compressBound(0, &prefs), NULL);
            CHECK(!LZ4F_isError(r));
            s += r;
        }
    }
    size_t e = LZ4F_compressEnd(cctx, streamed + s, LZ4F_compressBound(0, &prefs), NULL);
    CHECK(!LZ4F_isError(e));
    s += e;
    printf("lz4f compressUpdate %d %zu %08x\n", n, s, fnv1a(streamed, (int)s));
    CHECK(LZ4F_freeCompressionContext(cctx) == 0);
    char* back = malloc(n + 1);
    LZ4F_dctx* dctx = NULL;
    CHECK(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION) == 0);
    size_t src_size = c, dst_size = (size_t)n;
    CHECK(LZ4F_decompress(dctx, back, &dst_size, framed, &src_size, NULL) == 0);
    CHECK(src_size == c && dst_size == (size_t)n && memcmp(src, back, n) == 0);
    src_size = s;
    dst_size = (size_t)n;
    CHECK(LZ4F_decompress(dctx, back, &dst_size, streamed, &src_size, NULL) == 0);
    CHECK(src_size == s && dst_size == (size_t)n && memcmp(src, back, n) == 0);
    CHECK(LZ4F_freeDecompressionContext(dctx) == 0);
    free(src);
    free(streamed);
    free(framed);
    free(back);
}

/* A frame of the lz4 tool (-BD -B4 -BX --content-size: linked 64 KiB blocks, block and content
 * checksums, the content size) of 1080 bytes of text. */
static const unsigned char lz4_tool_frame[105] = {
    0x04, 0x22, 0x4d, 0x18, 0x7c, 0x40, 0x38, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x68,
    0x4a, 0x00, 0x00, 0x00, 0xf2, 0x0c, 0x66, 0x72, 0x61, 0x6d, 0x65, 0x20, 0x30, 0x20, 0x6f,
    0x66, 0x20, 0x74, 0x68, 0x65, 0x20, 0x73, 0x6d, 0x6f, 0x6b, 0x65, 0x20, 0x74, 0x65, 0x73,
    0x74, 0x2c, 0x20, 0x1b, 0x00, 0x1f, 0x31, 0x1b, 0x00, 0x07, 0x1f, 0x32, 0x1b, 0x00, 0x07,
    0x1f, 0x33, 0x1b, 0x00, 0x07, 0x1f, 0x34, 0x1b, 0x00, 0x07, 0x1f, 0x35, 0x1b, 0x00, 0x07,
    0x1f, 0x36, 0x1b, 0x00, 0x07, 0x0f, 0xbd, 0x00, 0xff, 0xff, 0xff, 0x60, 0x50, 0x65, 0x73,
    0x74, 0x2c, 0x20, 0xc1, 0x0c, 0xc1, 0xca, 0x00, 0x00, 0x00, 0x00, 0x3f, 0x5e, 0xd6, 0x9a};

/* LZ4F_decompress of that frame in pieces of `piece` bytes into outputs of `cap` bytes: every
 * call's result and sizes, and the content's hash. */
static void frame_decode(size_t piece, size_t cap, int info_first) {
    LZ4F_dctx* dctx = NULL;
    CHECK(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION) == 0);
    char content[2000];
    size_t pos = 0, made = 0, calls = 0;
    if (info_first) {
        LZ4F_frameInfo_t info;
        size_t used = sizeof lz4_tool_frame;
        size_t r = LZ4F_getFrameInfo(dctx, &info, lz4_tool_frame, &used);
        printf("lz4f info %zu %zu %u %u %llu\n", r, used, (unsigned)info.blockSizeID,
               (unsigned)info.blockMode, info.contentSize);
        pos += used;
    }
    for (;;) {
        size_t src_size = sizeof lz4_tool_frame - pos < piece ? sizeof lz4_tool_frame - pos : piece;
        size_t dst_size = cap;
        char out[300];
        size_t r = LZ4F_decompress(dctx, out, &dst_size, lz4_tool_frame + pos, &src_size, NULL);
        printf("lz4f decompress %zu %zu %zu %zu %zu\n", piece, cap, r, src_size, dst_size);
        if (LZ4F_isError(r) || made + dst_size > sizeof content) break;
        memcpy(content + made, out, dst_size);
        made += dst_size;
        pos += src_size;
        if (r == 0 || ++calls > 10000) break;
    }
    printf("lz4f content %zu %08x\n", made, fnv1a(content, (int)made));
    CHECK(made == 1080 && memcmp(content, "frame 0 of the smoke test, frame 1", 34) == 0);
    CHECK(LZ4F_freeDecompressionContext(dctx) == 0);
}

/* The frame API: error names, version, header sizes, type layouts. */
static void frame_api(void) {
    printf("lz4f version %u levelMax %d\n", LZ4F_getVersion(), LZ4F_compressionLevel_max());
    CHECK(LZ4F_getVersion() == LZ4F_VERSION);
    /* LZ4F_getErrorCode and LZ4F_getBlockSize are static-linking-only: liblz4's own
     * liblz4.so.1 does not export them, so they are not called here. */
    for (int code = 0; code <= (int)LZ4F_ERROR_maxCode + 1; code++) {
        size_t r = (size_t)-(ptrdiff_t)code;
        printf("lz4f error %d %u %s\n", code, LZ4F_isError(r), LZ4F_getErrorName(r));
    }
    unsigned char h[19] = {0x04, 0x22, 0x4D, 0x18, 0x64, 0x70, 0xB9};
    for (int flg = 0; flg < 256; flg += 9) {
        h[4] = (unsigned char)flg;
        printf("lz4f headerSize %d %zu %zu\n", flg, LZ4F_headerSize(h, 5), LZ4F_headerSize(h, 4));
    }
    unsigned char skip[8] = {0x5A, 0x2A, 0x4D, 0x18, 0, 0, 0, 0};
    CHECK(LZ4F_headerSize(skip, 8) == 8);
    CHECK(LZ4F_headerSize(NULL, 8) == (size_t)-(ptrdiff_t)LZ4F_ERROR_srcPtr_wrong);
    CHECK(sizeof(LZ4F_frameInfo_t) == 32 && offsetof(LZ4F_frameInfo_t, contentSize) == 16);
    CHECK(offsetof(LZ4F_frameInfo_t, dictID) == 24 && offsetof(LZ4F_frameInfo_t, blockChecksumFlag) == 28);
    CHECK(sizeof(LZ4F_preferences_t) == 56 && offsetof(LZ4F_preferences_t, compressionLevel) == 32);
    CHECK(offsetof(LZ4F_preferences_t, reserved) == 44);
    CHECK(sizeof(LZ4F_compressOptions_t) == 16 && sizeof(LZ4F_decompressOptions_t) == 16);
    LZ4F_preferences_t prefs = LZ4F_INIT_PREFERENCES;
    CHECK(prefs.frameInfo.blockSizeID == LZ4F_max64KB && prefs.compressionLevel == 0);
}

int main(void) {
    printf("version %d %s\n", LZ4_versionNumber(), LZ4_versionString());
    CHECK(LZ4_versionNumber() == LZ4_VERSION_NUMBER);
    CHECK(strcmp(LZ4_versionString(), LZ4_VERSION_STRING) == 0);
    CHECK(LZ4_compressBound(LZ4_MAX_INPUT_SIZE + 1) == 0);
    CHECK(LZ4_sizeofState() == (int)sizeof(LZ4_stream_t));
    CHECK(LZ4_sizeofStateHC() == (int)sizeof(LZ4_streamHC_t));
    int sizes[] = {0, 1, 20, 1000, 70000, 1 << 20};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) one(sizes[i]);
    streams(200000, 4096);
    streams(300000, 65536);
    streams(30000, 700);
    streams(20, 7);
    hc_streams(200000, 4096, 9);
    hc_streams(150000, 65536, 2);
    hc_streams(30000, 700, 12);
    hc_streams(20, 7, 4);
    frame_api();
    frame_decode(1, 1, 0);
    frame_decode(7, 100, 1);
    frame_decode(1000, 300, 0);
    frame_round_trip(0, 0, LZ4F_default, LZ4F_blockLinked);
    frame_round_trip(1000, -3, LZ4F_max64KB, LZ4F_blockIndependent);
    frame_round_trip(300000, 1, LZ4F_max64KB, LZ4F_blockLinked);
    frame_round_trip(300000, 9, LZ4F_max256KB, LZ4F_blockLinked);
    frame_round_trip(70000, 12, LZ4F_max4MB, LZ4F_blockIndependent);
    if (failures) fprintf(stderr, "smoke: %d failures\n", failures);
    return failures != 0;
}
