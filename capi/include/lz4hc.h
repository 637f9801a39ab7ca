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

/* A streaming HC state: LZ4_STREAMHC_MINSIZE (262200) bytes, aligned as a pointer. */
#define LZ4_STREAMHC_MINSIZE 262200
typedef union LZ4_streamHC_u {
    char minStateSize[LZ4_STREAMHC_MINSIZE];
    void* alignment_do_not_use;
} LZ4_streamHC_t;

#ifdef LZ4_HC_STATIC_LINKING_ONLY
/* LZ4_compress_HC_extStateHC on a state known to be initialised: skips clearing it. */
LZ4LIB_API int LZ4_compress_HC_extStateHC_fastReset(void* state, const char* src, char* dst, int srcSize, int dstCapacity, int compressionLevel);
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

#ifdef __cplusplus
}
#endif

#endif /* LZ4_SIMD_LZ4HC_H */
