/*
 * lz4frame.h: the LZ4 frame API (LZ4F_*) of liblz4 1.10.0, provided by lz4-simd's liblz4.so.1.
 *
 * Names, prototypes, constants, enumeration values and structure layouts are liblz4 1.10.0's,
 * so that programs written for liblz4 build and link against this library unchanged. Only the
 * functions this library exports are declared; see docs/c-abi.md in the lz4-simd repository for
 * the list and for what is still to come.
 *
 * Conventions: functions return a size_t that is either a size (or a hint) or an error code;
 * LZ4F_isError() tells them apart and LZ4F_getErrorName() names the error.
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#ifndef LZ4_SIMD_LZ4FRAME_H
#define LZ4_SIMD_LZ4FRAME_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>

#ifndef LZ4FLIB_API
#  if defined(__GNUC__) && (__GNUC__ >= 4)
#    define LZ4FLIB_API __attribute__((visibility("default")))
#  else
#    define LZ4FLIB_API
#  endif
#endif

/* ---- Errors ---- */

/* A result that may be an error code: test it with LZ4F_isError(). */
typedef size_t LZ4F_errorCode_t;

/* 1 if `code` (any LZ4F function's result) is an error, 0 if it is a size or a hint. */
LZ4FLIB_API unsigned LZ4F_isError(LZ4F_errorCode_t code);
/* The error's name ("ERROR_frameType_unknown", ...), "Unspecified error code" for no error. */
LZ4FLIB_API const char* LZ4F_getErrorName(LZ4F_errorCode_t code);

/* ---- Frame parameters ---- */

/* The largest content a block may hold. 0 (LZ4F_default) means 64 KiB. */
typedef enum {
    LZ4F_default = 0,
    LZ4F_max64KB = 4,
    LZ4F_max256KB = 5,
    LZ4F_max1MB = 6,
    LZ4F_max4MB = 7
} LZ4F_blockSizeID_t;

/* Linked blocks may refer to the 64 KiB of content before them; independent ones may not. */
typedef enum {
    LZ4F_blockLinked = 0,
    LZ4F_blockIndependent
} LZ4F_blockMode_t;

/* Whether the frame ends with an xxh32 of its whole content. */
typedef enum {
    LZ4F_noContentChecksum = 0,
    LZ4F_contentChecksumEnabled
} LZ4F_contentChecksum_t;

/* Whether every block is followed by an xxh32 of its stored bytes. */
typedef enum {
    LZ4F_noBlockChecksum = 0,
    LZ4F_blockChecksumEnabled
} LZ4F_blockChecksum_t;

/* An LZ4 frame, or a skippable frame (reported by the decoder only). */
typedef enum {
    LZ4F_frame = 0,
    LZ4F_skippableFrame
} LZ4F_frameType_t;

/* A frame's descriptor. Zero it (or use LZ4F_INIT_FRAMEINFO) for the defaults, then set the
 * fields wanted. contentSize 0 means unknown; dictID 0 means none. */
typedef struct {
    LZ4F_blockSizeID_t     blockSizeID;
    LZ4F_blockMode_t       blockMode;
    LZ4F_contentChecksum_t contentChecksumFlag;
    LZ4F_frameType_t       frameType;
    unsigned long long     contentSize;
    unsigned               dictID;
    LZ4F_blockChecksum_t   blockChecksumFlag;
} LZ4F_frameInfo_t;

#define LZ4F_INIT_FRAMEINFO { LZ4F_max64KB, LZ4F_blockLinked, LZ4F_noContentChecksum, LZ4F_frame, 0ULL, 0U, LZ4F_noBlockChecksum }

/* Compression preferences. Zero them (or use LZ4F_INIT_PREFERENCES) for the defaults.
 * compressionLevel: 0 is the default fast level, negative values accelerate, 3 and above use
 * LZ4 HC (above 12 counts as 12). autoFlush: 1 writes every input's blocks at once.
 * favorDecSpeed: 1 favours decoding speed at HC levels 10 and above. reserved: must be zero. */
typedef struct {
    LZ4F_frameInfo_t frameInfo;
    int      compressionLevel;
    unsigned autoFlush;
    unsigned favorDecSpeed;
    unsigned reserved[3];
} LZ4F_preferences_t;

#define LZ4F_INIT_PREFERENCES { LZ4F_INIT_FRAMEINFO, 0, 0u, 0u, { 0u, 0u, 0u } }

/* Compresses srcBuffer[0..srcSize) into one frame in dstBuffer, of dstCapacity bytes (at least
 * LZ4F_compressFrameBound(srcSize, preferencesPtr)). The block size is the smallest that holds
 * the input, up to the one asked for, and a frame of one block has independent blocks; a
 * non-zero contentSize asks for the content size, which is then srcSize. preferencesPtr may be
 * NULL (the defaults). Returns the frame's size, or an error code. */
LZ4FLIB_API size_t LZ4F_compressFrame(void* dstBuffer, size_t dstCapacity,
                                      const void* srcBuffer, size_t srcSize,
                                      const LZ4F_preferences_t* preferencesPtr);

/* The largest frame LZ4F_compressFrame() writes for srcSize bytes with these preferences. */
LZ4FLIB_API size_t LZ4F_compressFrameBound(size_t srcSize, const LZ4F_preferences_t* preferencesPtr);

/* The highest compression level (12). */
LZ4FLIB_API int LZ4F_compressionLevel_max(void);

/* ---- Contexts ---- */

typedef struct LZ4F_cctx_s LZ4F_cctx;
typedef LZ4F_cctx* LZ4F_compressionContext_t;

/* Options of one compression call. stableSrc: 1 promises that earlier inputs stay where they
 * were until the frame ends. reserved: must be zero. */
typedef struct {
    unsigned stableSrc;
    unsigned reserved[3];
} LZ4F_compressOptions_t;

/* The frame API's version; contexts are created with it. */
#define LZ4F_VERSION 100
LZ4FLIB_API unsigned LZ4F_getVersion(void);

/* The most LZ4F_compressUpdate() (with the flush or end after it) writes for srcSize bytes,
 * whatever was buffered before; with srcSize 0, the most LZ4F_flush() or LZ4F_compressEnd()
 * writes. prefsPtr NULL means the worst case. */
LZ4FLIB_API size_t LZ4F_compressBound(size_t srcSize, const LZ4F_preferences_t* prefsPtr);

/* Creates a compression context into *cctxPtr (version: LZ4F_VERSION). Returns 0, or an error
 * code. */
LZ4FLIB_API LZ4F_errorCode_t LZ4F_createCompressionContext(LZ4F_cctx** cctxPtr, unsigned version);
/* Frees a context (NULL: nothing). Returns 0. */
LZ4FLIB_API LZ4F_errorCode_t LZ4F_freeCompressionContext(LZ4F_cctx* cctx);

/* Starts a frame with these preferences (NULL: the defaults) and writes its header into
 * dstBuffer, of at least LZ4F_HEADER_SIZE_MAX bytes. Returns the header's size, or an error
 * code. */
LZ4FLIB_API size_t LZ4F_compressBegin(LZ4F_cctx* cctx, void* dstBuffer, size_t dstCapacity,
                                      const LZ4F_preferences_t* prefsPtr);

/* Adds srcBuffer[0..srcSize) to the frame: whole blocks (and with autoFlush the rest) are written
 * into dstBuffer, of at least LZ4F_compressBound(srcSize, prefsPtr) bytes; the rest waits in the
 * context. Returns the bytes written (maybe 0), or an error code. cOptPtr may be NULL. */
LZ4FLIB_API size_t LZ4F_compressUpdate(LZ4F_cctx* cctx, void* dstBuffer, size_t dstCapacity,
                                       const void* srcBuffer, size_t srcSize,
                                       const LZ4F_compressOptions_t* cOptPtr);

/* Writes the block waiting in the context, if any. Returns the bytes written (0 with none), or
 * an error code. */
LZ4FLIB_API size_t LZ4F_flush(LZ4F_cctx* cctx, void* dstBuffer, size_t dstCapacity,
                              const LZ4F_compressOptions_t* cOptPtr);

/* Ends the frame: the waiting block, the end mark and the content checksum. Returns the bytes
 * written, or an error code (also when a declared content size is not the input's). The
 * context can then begin another frame. */
LZ4FLIB_API size_t LZ4F_compressEnd(LZ4F_cctx* cctx, void* dstBuffer, size_t dstCapacity,
                                    const LZ4F_compressOptions_t* cOptPtr);

/* ---- Compression with a dictionary ---- */

/* LZ4F_compressBegin() with the dictionary dict[0..dictSize) (its last 64 KiB; NULL: none),
 * loaded once into the context: linked blocks may reference it from the first block on, while
 * independent blocks do not use it (as liblz4 1.10). dict must stay unchanged until the frame
 * ends. Returns the header's size, or an error code. */
LZ4FLIB_API size_t LZ4F_compressBegin_usingDict(LZ4F_cctx* cctx, void* dstBuffer,
                                                size_t dstCapacity, const void* dict,
                                                size_t dictSize,
                                                const LZ4F_preferences_t* prefsPtr);

/* A dictionary prepared once for many frames; read-only once made, so several threads may use
 * it at once. */
typedef struct LZ4F_CDict_s LZ4F_CDict;

/* Prepares the last 64 KiB of dictBuffer[0..dictSize) (copied: the buffer may go afterwards).
 * Returns NULL on failure. */
LZ4FLIB_API LZ4F_CDict* LZ4F_createCDict(const void* dictBuffer, size_t dictSize);
/* Frees a dictionary (NULL: nothing). */
LZ4FLIB_API void LZ4F_freeCDict(LZ4F_CDict* cdict);

/* LZ4F_compressFrame() on the context cctx with the dictionary cdict (NULL: none): every
 * independent block, or the first linked one, may reference it. dstCapacity must be at least
 * LZ4F_compressFrameBound(srcSize, prefsPtr). Returns the frame's size, or an error code. */
LZ4FLIB_API size_t LZ4F_compressFrame_usingCDict(LZ4F_cctx* cctx, void* dst, size_t dstCapacity,
                                                 const void* src, size_t srcSize,
                                                 const LZ4F_CDict* cdict,
                                                 const LZ4F_preferences_t* prefsPtr);

/* LZ4F_compressBegin() with the dictionary cdict (NULL: none) for the frame's blocks, as
 * LZ4F_compressFrame_usingCDict(). cdict must live until the frame ends. */
LZ4FLIB_API size_t LZ4F_compressBegin_usingCDict(LZ4F_cctx* cctx, void* dstBuffer,
                                                 size_t dstCapacity, const LZ4F_CDict* cdict,
                                                 const LZ4F_preferences_t* prefsPtr);

/* Sizes of a frame's parts. */
#define LZ4F_HEADER_SIZE_MIN      7
#define LZ4F_HEADER_SIZE_MAX     19
#define LZ4F_BLOCK_HEADER_SIZE    4
#define LZ4F_BLOCK_CHECKSUM_SIZE  4
#define LZ4F_CONTENT_CHECKSUM_SIZE 4

/* ---- Decompression ---- */

typedef struct LZ4F_dctx_s LZ4F_dctx;
typedef LZ4F_dctx* LZ4F_decompressionContext_t;

/* Options of one decompression call. stableDst: 1 promises that the previous 64 KiB of content
 * stay right before dstBuffer. skipChecksums: 1 neither computes nor checks checksums for the
 * rest of the frame. reserved1, reserved0: must be zero. */
typedef struct {
    unsigned stableDst;
    unsigned skipChecksums;
    unsigned reserved1;
    unsigned reserved0;
} LZ4F_decompressOptions_t;

/* Creates a decompression context into *dctxPtr (version: LZ4F_VERSION). Returns 0, or an
 * error code. */
LZ4FLIB_API LZ4F_errorCode_t LZ4F_createDecompressionContext(LZ4F_dctx** dctxPtr, unsigned version);
/* Frees a context (NULL: nothing). Returns 0 when it was between frames. */
LZ4FLIB_API LZ4F_errorCode_t LZ4F_freeDecompressionContext(LZ4F_dctx* dctx);

#define LZ4F_MAGICNUMBER 0x184D2204U
#define LZ4F_MAGIC_SKIPPABLE_START 0x184D2A50U
#define LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH 5

/* The length of the frame header at src (7 to 19, or 8 for a skippable frame), from its first
 * LZ4F_MIN_SIZE_TO_KNOW_HEADER_LENGTH bytes; or an error code. */
LZ4FLIB_API size_t LZ4F_headerSize(const void* src, size_t srcSize);

/* The frame's parameters, into *frameInfoPtr. Before decoding has started, the header at
 * srcBuffer (all of it, which LZ4F_headerSize() measures) is decoded and consumed:
 * *srcSizePtr becomes the bytes taken, and decoding goes on from srcBuffer + *srcSizePtr. Once
 * decoding has started nothing is read (*srcSizePtr becomes 0) and the parameters are the
 * current frame's; in the middle of a header this fails. Returns the hint of the next input
 * size for LZ4F_decompress(), or an error code. */
LZ4FLIB_API size_t LZ4F_getFrameInfo(LZ4F_dctx* dctx, LZ4F_frameInfo_t* frameInfoPtr,
                                     const void* srcBuffer, size_t* srcSizePtr);

/* Decodes up to *srcSizePtr bytes of srcBuffer into dstBuffer, of *dstSizePtr bytes.
 * *srcSizePtr becomes the input consumed (present the rest again in the next call) and
 * *dstSizePtr the content written. Returns a hint of the input size the next call wants (the
 * rest of the current block and the next block's header), 0 when a frame is complete (the call
 * stops at the frame's end), or an error code, after which the context must be reset.
 * Skippable frames are skipped. dOptPtr may be NULL. */
LZ4FLIB_API size_t LZ4F_decompress(LZ4F_dctx* dctx,
                                   void* dstBuffer, size_t* dstSizePtr,
                                   const void* srcBuffer, size_t* srcSizePtr,
                                   const LZ4F_decompressOptions_t* dOptPtr);

/* Starts over on a new frame, dropping any frame in progress (needed after an error). */
LZ4FLIB_API void LZ4F_resetDecompressionContext(LZ4F_dctx* dctx);

/* LZ4F_decompress() of frames compressed with the dictionary dict[0..dictSize), taken when a
 * frame starts. */
LZ4FLIB_API size_t LZ4F_decompress_usingDict(LZ4F_dctx* dctx,
                                             void* dstBuffer, size_t* dstSizePtr,
                                             const void* srcBuffer, size_t* srcSizePtr,
                                             const void* dict, size_t dictSize,
                                             const LZ4F_decompressOptions_t* decompressOptionsPtr);

#ifdef __cplusplus
}
#endif

#endif /* LZ4_SIMD_LZ4FRAME_H */

/* ---- The part for static linking (error codes, block sizes) ---- */
#if defined(LZ4F_STATIC_LINKING_ONLY) && !defined(LZ4_SIMD_LZ4FRAME_STATIC_H)
#define LZ4_SIMD_LZ4FRAME_STATIC_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LZ4FLIB_STATIC_API
#  define LZ4FLIB_STATIC_API LZ4FLIB_API
#endif

/* The error codes, in liblz4's order: an error result is minus its code. */
typedef enum {
    LZ4F_OK_NoError,
    LZ4F_ERROR_GENERIC,
    LZ4F_ERROR_maxBlockSize_invalid,
    LZ4F_ERROR_blockMode_invalid,
    LZ4F_ERROR_parameter_invalid,
    LZ4F_ERROR_compressionLevel_invalid,
    LZ4F_ERROR_headerVersion_wrong,
    LZ4F_ERROR_blockChecksum_invalid,
    LZ4F_ERROR_reservedFlag_set,
    LZ4F_ERROR_allocation_failed,
    LZ4F_ERROR_srcSize_tooLarge,
    LZ4F_ERROR_dstMaxSize_tooSmall,
    LZ4F_ERROR_frameHeader_incomplete,
    LZ4F_ERROR_frameType_unknown,
    LZ4F_ERROR_frameSize_wrong,
    LZ4F_ERROR_srcPtr_wrong,
    LZ4F_ERROR_decompressionFailed,
    LZ4F_ERROR_headerChecksum_invalid,
    LZ4F_ERROR_contentChecksum_invalid,
    LZ4F_ERROR_frameDecoding_alreadyStarted,
    LZ4F_ERROR_compressionState_uninitialized,
    LZ4F_ERROR_parameter_null,
    LZ4F_ERROR_io_write,
    LZ4F_ERROR_io_read,
    LZ4F_ERROR_maxCode,
    _LZ4F_dummy_error_enum_for_c89_never_used
} LZ4F_errorCodes;

/* The code of the error a result reports, LZ4F_OK_NoError if it reports none. */
LZ4FLIB_STATIC_API LZ4F_errorCodes LZ4F_getErrorCode(size_t functionResult);

/* The largest content of a block of blockSizeID (LZ4F_default: 64 KiB), or an error code. */
LZ4FLIB_STATIC_API size_t LZ4F_getBlockSize(LZ4F_blockSizeID_t blockSizeID);

/* LZ4F_compressUpdate() that stores srcBuffer[0..srcSize) in uncompressed blocks: whole
 * blocks (and with autoFlush the rest) are written, the rest waits in the context. What a
 * compressing update left waiting is written first (compressed), and what this one leaves is
 * written stored by the next compressing update or flush. dstCapacity must be at least
 * LZ4F_compressBound(srcSize, prefsPtr) and srcSize. Independent blocks only (linked:
 * LZ4F_ERROR_blockMode_invalid). Returns the bytes written (maybe 0), or an error code. */
LZ4FLIB_STATIC_API size_t LZ4F_uncompressedUpdate(LZ4F_cctx* cctx, void* dstBuffer,
                                                  size_t dstCapacity, const void* srcBuffer,
                                                  size_t srcSize,
                                                  const LZ4F_compressOptions_t* cOptPtr);

/* Allocation functions for the _advanced constructors, given opaqueState. customCalloc may be
 * NULL (customAlloc and zeroes are used); all NULL means the C library's calloc and free. They
 * allocate the object itself; its internal buffers come from the process's allocator. */
typedef void* (*LZ4F_AllocFunction)(void* opaqueState, size_t size);
typedef void* (*LZ4F_CallocFunction)(void* opaqueState, size_t size);
typedef void (*LZ4F_FreeFunction)(void* opaqueState, void* address);
typedef struct {
    LZ4F_AllocFunction customAlloc;
    LZ4F_CallocFunction customCalloc;
    LZ4F_FreeFunction customFree;
    void* opaqueState;
} LZ4F_CustomMem;
static
#ifdef __GNUC__
__attribute__((__unused__))
#endif
LZ4F_CustomMem const LZ4F_defaultCMem = { NULL, NULL, NULL, NULL };

/* Contexts and dictionaries allocated with customMem: NULL when the allocation fails. Free them
 * with the usual functions. */
LZ4FLIB_STATIC_API LZ4F_cctx* LZ4F_createCompressionContext_advanced(LZ4F_CustomMem customMem,
                                                                     unsigned version);
LZ4FLIB_STATIC_API LZ4F_dctx* LZ4F_createDecompressionContext_advanced(LZ4F_CustomMem customMem,
                                                                       unsigned version);
LZ4FLIB_STATIC_API LZ4F_CDict* LZ4F_createCDict_advanced(LZ4F_CustomMem customMem,
                                                         const void* dictBuffer, size_t dictSize);

#ifdef __cplusplus
}
#endif

#endif /* LZ4F_STATIC_LINKING_ONLY */
