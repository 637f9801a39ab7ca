/*
 * lz4.h: the LZ4 block API of liblz4 1.10.0, provided by lz4-simd's liblz4.so.1.
 *
 * Names, prototypes, constants and type sizes are liblz4 1.10.0's, so that programs written for
 * liblz4 build and link against this library unchanged. Only the functions this library exports
 * are declared; see docs/c-abi.md in the lz4-simd repository for the list.
 *
 * Conventions: sizes are `int`. Compressors return the compressed size, or 0 when the output
 * does not fit or an argument is invalid. Decoders return the decoded size, or a negative value
 * for a malformed block, an output too small, or an invalid argument; they never read or write
 * outside the buffers described by their arguments.
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#ifndef LZ4_SIMD_LZ4_H
#define LZ4_SIMD_LZ4_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#ifndef LZ4LIB_API
#  if defined(__GNUC__) && (__GNUC__ >= 4)
#    define LZ4LIB_API __attribute__((visibility("default")))
#  else
#    define LZ4LIB_API
#  endif
#endif

/* Version: 1.10.0. */
#define LZ4_VERSION_MAJOR    1
#define LZ4_VERSION_MINOR   10
#define LZ4_VERSION_RELEASE  0
#define LZ4_VERSION_NUMBER (LZ4_VERSION_MAJOR * 100 * 100 + LZ4_VERSION_MINOR * 100 + LZ4_VERSION_RELEASE)
#define LZ4_LIB_VERSION LZ4_VERSION_MAJOR.LZ4_VERSION_MINOR.LZ4_VERSION_RELEASE
#define LZ4_QUOTE(str) #str
#define LZ4_EXPAND_AND_QUOTE(str) LZ4_QUOTE(str)
#define LZ4_VERSION_STRING LZ4_EXPAND_AND_QUOTE(LZ4_LIB_VERSION)

/* 11000 for 1.10.0. */
LZ4LIB_API int LZ4_versionNumber(void);
/* "1.10.0". */
LZ4LIB_API const char* LZ4_versionString(void);

/* The hash table size, as a power of 2 (16 KiB): fixed in this library. */
#define LZ4_MEMORY_USAGE_MIN 10
#define LZ4_MEMORY_USAGE_DEFAULT 14
#define LZ4_MEMORY_USAGE_MAX 20
#define LZ4_MEMORY_USAGE LZ4_MEMORY_USAGE_DEFAULT

/* ---- One-shot block functions ---- */

/* Compresses src[0..srcSize) into dst[0..dstCapacity) at the default speed. Returns the
 * compressed size, or 0 on failure (dst too small, srcSize negative or above
 * LZ4_MAX_INPUT_SIZE). A dstCapacity of at least LZ4_compressBound(srcSize) always suffices. */
LZ4LIB_API int LZ4_compress_default(const char* src, char* dst, int srcSize, int dstCapacity);

/* Decodes the block src[0..compressedSize) into dst[0..dstCapacity). Returns the decoded size,
 * or a negative value if the block is malformed or does not fit. */
LZ4LIB_API int LZ4_decompress_safe(const char* src, char* dst, int compressedSize, int dstCapacity);

/* The largest input a block may hold, and the most such an input compresses to (0 above it). */
#define LZ4_MAX_INPUT_SIZE 0x7E000000
#define LZ4_COMPRESSBOUND(isize) ((unsigned)(isize) > (unsigned)LZ4_MAX_INPUT_SIZE ? 0 : (isize) + ((isize) / 255) + 16)
LZ4LIB_API int LZ4_compressBound(int inputSize);

/* As LZ4_compress_default, trading ratio for speed: each step of acceleration is about 3% faster.
 * Values below 1 count as 1, above 65537 as 65537. */
LZ4LIB_API int LZ4_compress_fast(const char* src, char* dst, int srcSize, int dstCapacity, int acceleration);

/* The size of the state LZ4_compress_fast_extState takes (sizeof(LZ4_stream_t)). */
LZ4LIB_API int LZ4_sizeofState(void);
/* LZ4_compress_fast with a state in the caller's memory: LZ4_sizeofState() bytes, aligned as a
 * pointer (0 is returned for a null or misaligned state). The state is left initialised. */
LZ4LIB_API int LZ4_compress_fast_extState(void* state, const char* src, char* dst, int srcSize, int dstCapacity, int acceleration);

/* Compresses as much of src[0..*srcSizePtr) as fits in dst[0..targetDstSize). Returns the
 * compressed size and sets *srcSizePtr to the number of input bytes it holds; 0 on failure. */
LZ4LIB_API int LZ4_compress_destSize(const char* src, char* dst, int* srcSizePtr, int targetDstSize);

/* Decodes the first min(targetOutputSize, dstCapacity) bytes of the block (all of it if it
 * decodes to less). Returns the number of bytes written, or a negative value on error. */
LZ4LIB_API int LZ4_decompress_safe_partial(const char* src, char* dst, int srcSize, int targetOutputSize, int dstCapacity);

/* ---- Dictionaries ---- */

/* Decoding a block compressed with the dictionary dictStart[0..dictSize) (its last 64 KiB
 * matter). The dictionary may sit right before dst in the same buffer. */
LZ4LIB_API int LZ4_decompress_safe_usingDict(const char* src, char* dst, int srcSize, int dstCapacity, const char* dictStart, int dictSize);
LZ4LIB_API int LZ4_decompress_safe_partial_usingDict(const char* src, char* dst, int compressedSize, int targetOutputSize, int maxOutputSize, const char* dictStart, int dictSize);

/* ---- State types, for static allocation ---- */

/* A streaming compression state: LZ4_STREAM_MINSIZE (16416) bytes, aligned as a pointer. */
#define LZ4_STREAM_MINSIZE ((1UL << (LZ4_MEMORY_USAGE)) + 32)
typedef union LZ4_stream_u {
    char minStateSize[LZ4_STREAM_MINSIZE];
    void* alignment_do_not_use;
} LZ4_stream_t;

/* A streaming decoding state: LZ4_STREAMDECODE_MINSIZE (32) bytes. */
#define LZ4_STREAMDECODE_MINSIZE 32
typedef union LZ4_streamDecode_u {
    char minStateSize[LZ4_STREAMDECODE_MINSIZE];
    unsigned long long alignment_do_not_use;
} LZ4_streamDecode_t;

/* A ring buffer of this size decodes blocks of up to maxBlockSize bytes in place. */
#define LZ4_DECODER_RING_BUFFER_SIZE(maxBlockSize) (65536 + 14 + (maxBlockSize))

LZ4LIB_API int LZ4_decoderRingBufferSize(int maxBlockSize);

/* ---- Streaming compression ---- */

/* Blocks compressed as a stream may reference the blocks compressed before them (their last
 * 64 KiB), which must stay in place and unchanged where they were passed, or be moved into a
 * buffer of the caller's by LZ4_saveDict. An input that starts where the previous one ended
 * continues it; any other makes the previous input (alone) the history. The state lives
 * entirely in the LZ4_stream_t: a stream from LZ4_initStream may be on the stack, copied or
 * dropped without a call. */
LZ4LIB_API LZ4_stream_t* LZ4_createStream(void);
LZ4LIB_API int LZ4_freeStream(LZ4_stream_t* streamPtr);
/* Makes stateBuffer[0..size) a fresh stream; NULL if it is NULL, smaller than
 * LZ4_STREAM_MINSIZE or not aligned as a pointer. */
LZ4LIB_API LZ4_stream_t* LZ4_initStream(void* stateBuffer, size_t size);
/* Starts a new stream on an initialised state, keeping its table (faster than LZ4_initStream). */
LZ4LIB_API void LZ4_resetStream_fast(LZ4_stream_t* streamPtr);
/* Starts the stream from a dictionary (its last 64 KiB; ignored under 8 bytes), which must stay
 * in place. Returns the size used. The Slow form enters every position: slower, a little
 * smaller output. */
LZ4LIB_API int LZ4_loadDict(LZ4_stream_t* streamPtr, const char* dictionary, int dictSize);
LZ4LIB_API int LZ4_loadDictSlow(LZ4_stream_t* streamPtr, const char* dictionary, int dictSize);
/* The next block may reference the dictionary of dictionaryStream (prepared by LZ4_loadDict),
 * read in place: it and its bytes must stay in place until that block is compressed. */
LZ4LIB_API void LZ4_attach_dictionary(LZ4_stream_t* workingStream, const LZ4_stream_t* dictionaryStream);
/* The next block: the compressed size, or 0 if it does not fit in dstCapacity (the input is
 * then history all the same) or the arguments are invalid. */
LZ4LIB_API int LZ4_compress_fast_continue(LZ4_stream_t* streamPtr, const char* src, char* dst, int srcSize, int dstCapacity, int acceleration);
/* Moves the last min(maxDictSize, 64 KiB) bytes of the history into safeBuffer, which becomes
 * the history. Returns the size saved. */
LZ4LIB_API int LZ4_saveDict(LZ4_stream_t* streamPtr, char* safeBuffer, int maxDictSize);
/* Zeroes the stream (LZ4_initStream on a state already checked). */
LZ4LIB_API void LZ4_resetStream(LZ4_stream_t* streamPtr);

/* ---- Streaming decompression ---- */

/* Blocks compressed as a stream reference the blocks before them: decode them in order with one
 * LZ4_streamDecode_t, each into memory that leaves the earlier output (its last 64 KiB) in place
 * and unchanged, either right after the previous block or elsewhere (then only the previous
 * block is history), for instance a ring buffer of LZ4_decoderRingBufferSize() bytes. */
LZ4LIB_API LZ4_streamDecode_t* LZ4_createStreamDecode(void);
LZ4LIB_API int LZ4_freeStreamDecode(LZ4_streamDecode_t* LZ4_stream);
/* Starts a stream from a dictionary (none if dictSize is 0), which must stay in place. Returns 1. */
LZ4LIB_API int LZ4_setStreamDecode(LZ4_streamDecode_t* LZ4_streamDecode, const char* dictionary, int dictSize);
/* The next block of the stream: the decoded size, or a negative value (the stream unchanged). */
LZ4LIB_API int LZ4_decompress_safe_continue(LZ4_streamDecode_t* LZ4_streamDecode, const char* src, char* dst, int srcSize, int dstCapacity);

/* ---- Static-linking-only functions (also exported by this library) ---- */
#ifdef LZ4_STATIC_LINKING_ONLY
/* LZ4_compress_fast_extState on a state known to be initialised: skips clearing it. */
LZ4LIB_API int LZ4_compress_fast_extState_fastReset(void* state, const char* src, char* dst, int srcSize, int dstCapacity, int acceleration);
/* LZ4_compress_destSize at an acceleration, with a state as LZ4_compress_fast_extState's. */
LZ4LIB_API int LZ4_compress_destSize_extState(void* state, const char* src, char* dst, int* srcSizePtr, int targetDstSize, int acceleration);

/* In-place use: a buffer holding the input at its end and the output from its start. These are
 * liblz4's sizes (this library copies an input that overlaps its output, so any layout works). */
#ifndef LZ4_DISTANCE_MAX
#  define LZ4_DISTANCE_MAX 65535
#endif
/* Decoding: the decoded size plus 32 bytes and 1 per 256. */
#define LZ4_DECOMPRESS_INPLACE_MARGIN(compressedSize) (((compressedSize) >> 8) + 32)
#define LZ4_DECOMPRESS_INPLACE_BUFFER_SIZE(decompressedSize) ((decompressedSize) + LZ4_DECOMPRESS_INPLACE_MARGIN(decompressedSize))
/* Compressing: the compressed bound plus the match distance and 32 bytes. */
#define LZ4_COMPRESS_INPLACE_MARGIN (LZ4_DISTANCE_MAX + 32)
#define LZ4_COMPRESS_INPLACE_BUFFER_SIZE(maxCompressedSize) ((maxCompressedSize) + LZ4_COMPRESS_INPLACE_MARGIN)
#endif

/* ---- Older names (liblz4 keeps them in its ABI) ---- */
#ifndef LZ4_DEPRECATED
#  if defined(LZ4_DISABLE_DEPRECATE_WARNINGS)
#    define LZ4_DEPRECATED(message)
#  elif defined(__GNUC__) || defined(__clang__)
#    define LZ4_DEPRECATED(message) __attribute__((deprecated(message)))
#  else
#    define LZ4_DEPRECATED(message)
#  endif
#endif
LZ4_DEPRECATED("use LZ4_compress_default() instead") LZ4LIB_API int LZ4_compress(const char* src, char* dest, int srcSize);
LZ4_DEPRECATED("use LZ4_compress_default() instead") LZ4LIB_API int LZ4_compress_limitedOutput(const char* src, char* dest, int srcSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_compress_fast_extState() instead") LZ4LIB_API int LZ4_compress_withState(void* state, const char* source, char* dest, int inputSize);
LZ4_DEPRECATED("use LZ4_compress_fast_extState() instead") LZ4LIB_API int LZ4_compress_limitedOutput_withState(void* state, const char* source, char* dest, int inputSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_decompress_safe() instead") LZ4LIB_API int LZ4_uncompress_unknownOutputSize(const char* source, char* dest, int isize, int maxOutputSize);
LZ4_DEPRECATED("use sizeof(LZ4_stream_t) instead") LZ4LIB_API int LZ4_sizeofStreamState(void);
LZ4_DEPRECATED("use LZ4_compress_fast_continue() instead") LZ4LIB_API int LZ4_compress_continue(LZ4_stream_t* LZ4_streamPtr, const char* source, char* dest, int inputSize);
LZ4_DEPRECATED("use LZ4_compress_fast_continue() instead") LZ4LIB_API int LZ4_compress_limitedOutput_continue(LZ4_stream_t* LZ4_streamPtr, const char* source, char* dest, int inputSize, int maxOutputSize);
LZ4_DEPRECATED("use LZ4_createStream() instead") LZ4LIB_API void* LZ4_create(char* inputBuffer);
LZ4_DEPRECATED("use LZ4_resetStream() instead") LZ4LIB_API int LZ4_resetStreamState(void* state, char* inputBuffer);
/* The start of the stream's history. */
LZ4_DEPRECATED("use LZ4_saveDict() instead") LZ4LIB_API char* LZ4_slideInputBuffer(void* state);
/* Decoding a block of known decoded size without its compressed size: the input must be a
 * complete block (it is read up to its end). Returns the number of input bytes read, or a
 * negative value. */
LZ4_DEPRECATED("use LZ4_decompress_safe() instead") LZ4LIB_API int LZ4_decompress_fast(const char* src, char* dst, int originalSize);
LZ4_DEPRECATED("use LZ4_decompress_safe_continue() instead") LZ4LIB_API int LZ4_decompress_fast_continue(LZ4_streamDecode_t* LZ4_streamDecode, const char* src, char* dst, int originalSize);
LZ4_DEPRECATED("use LZ4_decompress_safe_usingDict() instead") LZ4LIB_API int LZ4_decompress_fast_usingDict(const char* src, char* dst, int originalSize, const char* dictStart, int dictSize);
LZ4_DEPRECATED("use LZ4_decompress_fast() instead") LZ4LIB_API int LZ4_uncompress(const char* source, char* dest, int outputSize);
LZ4_DEPRECATED("use LZ4_decompress_safe_usingDict() instead") LZ4LIB_API int LZ4_decompress_fast_withPrefix64k(const char* source, char* dest, int originalSize);
/* The 64 KiB before dst are the history. */
LZ4_DEPRECATED("use LZ4_decompress_safe_usingDict() instead") LZ4LIB_API int LZ4_decompress_safe_withPrefix64k(const char* src, char* dst, int compressedSize, int maxDstSize);

#ifdef __cplusplus
}
#endif

#endif /* LZ4_SIMD_LZ4_H */
