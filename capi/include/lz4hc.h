/*
 * lz4hc.h: the LZ4 HC (high compression) block API of liblz4 1.10.0, provided by lz4-simd's
 * liblz4.so.1. Same block format as lz4.h's: decode with LZ4_decompress_safe.
 *
 * Names, prototypes, constants and type sizes are liblz4 1.10.0's. Only the functions this
 * library exports are declared.
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#ifndef LZ4_SIMD_LZ4HC_H
#define LZ4_SIMD_LZ4HC_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>
#include "lz4.h"

/* Levels: below 1 means the default (9), above 12 means 12. */
#define LZ4HC_CLEVEL_MIN         2
#define LZ4HC_CLEVEL_DEFAULT     9
#define LZ4HC_CLEVEL_OPT_MIN    10
#define LZ4HC_CLEVEL_MAX        12

/* Compresses src[0..srcSize) into dst[0..dstCapacity) at compressionLevel. Returns the
 * compressed size, or 0 on failure. LZ4_compressBound(srcSize) bytes of dst always suffice. */
LZ4LIB_API int LZ4_compress_HC(const char* src, char* dst, int srcSize, int dstCapacity, int compressionLevel);

/* The size of the state the _extStateHC and _destSize functions take. */
LZ4LIB_API int LZ4_sizeofStateHC(void);

/* LZ4_compress_HC with a state in the caller's memory: LZ4_sizeofStateHC() bytes, aligned as a
 * pointer (0 is returned for a null or misaligned state). */
LZ4LIB_API int LZ4_compress_HC_extStateHC(void* stateHC, const char* src, char* dst, int srcSize, int maxDstSize, int compressionLevel);

/* Compresses as much of src[0..*srcSizePtr) as fits in dst[0..targetDstSize) at
 * compressionLevel. Returns the compressed size and sets *srcSizePtr to the input it holds;
 * 0 on failure. stateHC as for LZ4_compress_HC_extStateHC. */
LZ4LIB_API int LZ4_compress_HC_destSize(void* stateHC, const char* src, char* dst, int* srcSizePtr, int targetDstSize, int compressionLevel);

/* A streaming HC state: LZ4_STREAMHC_MINSIZE (262200) bytes, aligned as a pointer. Its fields
 * have liblz4's layout (LZ4HC_CCtx_internal); they are not an interface (liblz4's own tests
 * read `dirty`). */
#define LZ4_STREAMHC_MINSIZE 262200
typedef struct LZ4HC_CCtx_internal LZ4HC_CCtx_internal;
struct LZ4HC_CCtx_internal {
    uint32_t hashTable[1 << 15];   /* the index of the last position of each 4-byte hash */
    uint16_t chainTable[1 << 16];  /* the distance to the previous position of the same hash */
    const uint8_t* end;            /* the prefix: [prefixStart, end), indices from dictLimit */
    const uint8_t* prefixStart;
    const uint8_t* dictStart;      /* the external dictionary, indices [lowLimit, dictLimit) */
    uint32_t dictLimit;
    uint32_t lowLimit;
    uint32_t nextToUpdate;         /* positions below it are in the tables */
    short compressionLevel;
    int8_t favorDecSpeed;
    int8_t dirty;                  /* a block failed: the next fast reset initialises */
    const LZ4HC_CCtx_internal* dictCtx; /* an attached dictionary stream */
};
typedef union LZ4_streamHC_u {
    char minStateSize[LZ4_STREAMHC_MINSIZE];
    LZ4HC_CCtx_internal internal_donotuse;
} LZ4_streamHC_t;

/* ---- Streaming HC compression ----
 * The whole state is in the LZ4_streamHC_t; each block may reference the blocks before it (their
 * last 64 KiB), which must stay where they were passed, unchanged, or be saved with
 * LZ4_saveDictHC. A block that starts where the previous one ended continues it; any other makes
 * the previous one (or the saved or loaded dictionary) its history. */

/* A new stream at level 9, or NULL; free it with LZ4_freeStreamHC (which accepts NULL). */
LZ4LIB_API LZ4_streamHC_t* LZ4_createStreamHC(void);
LZ4LIB_API int LZ4_freeStreamHC(LZ4_streamHC_t* streamHCPtr);

/* Makes buffer[0..size) a stream at level 9 and returns it; NULL when buffer is NULL, smaller
 * than LZ4_STREAMHC_MINSIZE or not aligned as a pointer. */
LZ4LIB_API LZ4_streamHC_t* LZ4_initStreamHC(void* buffer, size_t size);

/* Starts the stream from the last 64 KiB of dictionary[0..dictSize), which must stay in place
 * while the stream uses it; returns the size used. */
LZ4LIB_API int LZ4_loadDictHC(LZ4_streamHC_t* streamHCPtr, const char* dictionary, int dictSize);

/* Compresses src[0..srcSize) as the next block into dst[0..maxDstSize), at the stream's level:
 * the compressed size, or 0 on failure (LZ4_compressBound(srcSize) bytes always suffice). */
LZ4LIB_API int LZ4_compress_HC_continue(LZ4_streamHC_t* streamHCPtr, const char* src, char* dst, int srcSize, int maxDstSize);

/* As much of src[0..*srcSizePtr) as fits in dst[0..targetDstSize) as the next block: the
 * compressed size, *srcSizePtr set to the input it holds; 0 on failure. */
LZ4LIB_API int LZ4_compress_HC_continue_destSize(LZ4_streamHC_t* LZ4_streamHCPtr, const char* src, char* dst, int* srcSizePtr, int targetDstSize);

/* Moves the last min(maxDictSize, 64 KiB) bytes of the history into safeBuffer, which becomes
 * the history; returns the size saved. */
LZ4LIB_API int LZ4_saveDictHC(LZ4_streamHC_t* streamHCPtr, char* safeBuffer, int maxDictSize);

/* Attaches a stream prepared by LZ4_loadDictHC (or NULL to detach) as the dictionary of the
 * next blocks, read in place: it and its dictionary must stay unchanged while attached. */
LZ4LIB_API void LZ4_attach_HC_dictionary(LZ4_streamHC_t* working_stream, const LZ4_streamHC_t* dictionary_stream);

#ifdef LZ4_HC_STATIC_LINKING_ONLY
/* LZ4_compress_HC_extStateHC on a state known to be initialised: skips clearing it. */
LZ4LIB_API int LZ4_compress_HC_extStateHC_fastReset(void* state, const char* src, char* dst, int srcSize, int dstCapacity, int compressionLevel);

/* Starts a new stream at compressionLevel, keeping the tables when it can (an initialised
 * stream only). */
LZ4LIB_API void LZ4_resetStreamHC_fast(LZ4_streamHC_t* streamHCPtr, int compressionLevel);

/* Sets the level of the next blocks (below 1 is 9, above 12 is 12). */
LZ4LIB_API void LZ4_setCompressionLevel(LZ4_streamHC_t* LZ4_streamHCPtr, int compressionLevel);
#endif

/* ---- Older names (liblz4 keeps them in its ABI); level 0 is the default ---- */
LZ4_DEPRECATED("use LZ4_compress_HC() instead") LZ4LIB_API int LZ4_compressHC(const char* source, char* dest, int inputSize);
LZ4_DEPRECATED("use LZ4_compress_HC() instead") LZ4LIB_API int LZ4_compressHC_limitedOutput(const char* source, char* dest, int inputSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_compress_HC() instead") LZ4LIB_API int LZ4_compressHC2(const char* source, char* dest, int inputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_compress_HC() instead") LZ4LIB_API int LZ4_compressHC2_limitedOutput(const char* source, char* dest, int inputSize, int maxOutputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_compress_HC_extStateHC() instead") LZ4LIB_API int LZ4_compressHC_withStateHC(void* state, const char* source, char* dest, int inputSize);
LZ4_DEPRECATED("use LZ4_compress_HC_extStateHC() instead") LZ4LIB_API int LZ4_compressHC_limitedOutput_withStateHC(void* state, const char* source, char* dest, int inputSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_compress_HC_extStateHC() instead") LZ4LIB_API int LZ4_compressHC2_withStateHC(void* state, const char* source, char* dest, int inputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_compress_HC_extStateHC() instead") LZ4LIB_API int LZ4_compressHC2_limitedOutput_withStateHC(void* state, const char* source, char* dest, int inputSize, int maxOutputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_sizeofStateHC() instead") LZ4LIB_API int LZ4_sizeofStreamStateHC(void);
LZ4_DEPRECATED("use LZ4_compress_HC_continue() instead") LZ4LIB_API int LZ4_compressHC_continue(LZ4_streamHC_t* LZ4_streamHCPtr, const char* source, char* dest, int inputSize);
LZ4_DEPRECATED("use LZ4_compress_HC_continue() instead") LZ4LIB_API int LZ4_compressHC_limitedOutput_continue(LZ4_streamHC_t* LZ4_streamHCPtr, const char* source, char* dest, int inputSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_createStreamHC() instead") LZ4LIB_API void* LZ4_createHC(const char* inputBuffer);
LZ4_DEPRECATED("use LZ4_saveDictHC() instead") LZ4LIB_API char* LZ4_slideInputBufferHC(void* LZ4HC_Data);
LZ4_DEPRECATED("use LZ4_freeStreamHC() instead") LZ4LIB_API int LZ4_freeHC(void* LZ4HC_Data);
LZ4_DEPRECATED("use LZ4_compress_HC_continue() instead") LZ4LIB_API int LZ4_compressHC2_continue(void* LZ4HC_Data, const char* source, char* dest, int inputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_compress_HC_continue() instead") LZ4LIB_API int LZ4_compressHC2_limitedOutput_continue(void* LZ4HC_Data, const char* source, char* dest, int inputSize, int maxOutputSize, int compressionLevel);
LZ4_DEPRECATED("use LZ4_initStreamHC() instead") LZ4LIB_API int LZ4_resetStreamStateHC(void* state, char* inputBuffer);
/* Initialises the stream (as LZ4_initStreamHC) at compressionLevel. */
LZ4LIB_API void LZ4_resetStreamHC(LZ4_streamHC_t* streamHCPtr, int compressionLevel);

#ifdef __cplusplus
}
#endif

#endif /* LZ4_SIMD_LZ4HC_H */
