/*
 * lz4file.h: LZ4 frames read from and written to a stdio FILE*, the file API of liblz4 1.10.0,
 * provided by lz4-simd's liblz4.so.1.
 *
 * Names and prototypes are liblz4 1.10.0's; the handles are opaque. Like liblz4's, this header
 * turns on the static-linking part of lz4frame.h (LZ4F_preferences_t, the error codes).
 * Results are LZ4F results: a size or 0, or an error code to test with LZ4F_isError().
 * The FILE* stays the caller's: the functions read or write it from where it stands, and never
 * close it. See docs/c-abi.md in the lz4-simd repository for the few places where this library
 * reports an error that liblz4 would not.
 *
 * SPDX-License-Identifier: MIT OR Apache-2.0
 */
#ifndef LZ4_SIMD_LZ4FILE_H
#define LZ4_SIMD_LZ4FILE_H

#include <stdio.h>

#ifndef LZ4F_STATIC_LINKING_ONLY
#  define LZ4F_STATIC_LINKING_ONLY
#endif
#include "lz4frame.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A frame being read (LZ4F_readOpen) or written (LZ4F_writeOpen). */
typedef struct LZ4_readFile_s LZ4_readFile_t;
typedef struct LZ4_writeFile_s LZ4_writeFile_t;

/* Reads the header of the frame at fp's position and stores a new read handle in *lz4fRead.
 * Returns 0, or an error code with *lz4fRead set to NULL: LZ4F_ERROR_parameter_null for a NULL
 * argument (*lz4fRead is then left alone), LZ4F_ERROR_io_read when the header cannot be read,
 * or the header's own error. */
LZ4FLIB_STATIC_API LZ4F_errorCode_t LZ4F_readOpen(LZ4_readFile_t** lz4fRead, FILE* fp);

/* Decodes up to `size` bytes of content into buf. Returns the number of bytes stored, which is
 * below `size` only when the file has ended (0 once everything was read), or an error code:
 * LZ4F_ERROR_parameter_null, LZ4F_ERROR_io_read (fread failed, or the file stops inside a
 * frame), or the frame's error (corrupted block, checksum mismatch...); once decoding failed,
 * later calls return the same error. Consecutive frames read as one content. */
LZ4FLIB_STATIC_API size_t LZ4F_read(LZ4_readFile_t* lz4fRead, void* buf, size_t size);

/* Releases a read handle (the FILE* stays open). Returns 0, or LZ4F_ERROR_parameter_null. */
LZ4FLIB_STATIC_API LZ4F_errorCode_t LZ4F_readClose(LZ4_readFile_t* lz4fRead);

/* Begins a frame on fp with prefsPtr (NULL: default preferences), writes its header and stores
 * a new write handle in *lz4fWrite. Returns 0, or an error code with *lz4fWrite set to NULL:
 * LZ4F_ERROR_parameter_null for a NULL lz4fWrite or fp (*lz4fWrite is then left alone),
 * LZ4F_ERROR_maxBlockSize_invalid, a preference error, LZ4F_ERROR_io_write. */
LZ4FLIB_STATIC_API LZ4F_errorCode_t LZ4F_writeOpen(LZ4_writeFile_t** lz4fWrite, FILE* fp,
                                                   const LZ4F_preferences_t* prefsPtr);

/* Compresses buf[0..size) into the frame and writes the compressed blocks to fp. Returns size,
 * or an error code: LZ4F_ERROR_parameter_null, LZ4F_ERROR_io_write (fwrite wrote less), a
 * compression error. Once a call failed, the frame is broken: later calls return that error. */
LZ4FLIB_STATIC_API size_t LZ4F_write(LZ4_writeFile_t* lz4fWrite, const void* buf, size_t size);

/* Ends the frame, writes its end, flushes fp (without closing it) and releases the handle.
 * Returns the size of that end (the last block, end mark and checksum: never 0, as liblz4's),
 * or an error code: LZ4F_ERROR_parameter_null, LZ4F_ERROR_io_write, the error of an
 * earlier LZ4F_write, LZ4F_ERROR_frameSize_wrong (content size other than declared). */
LZ4FLIB_STATIC_API LZ4F_errorCode_t LZ4F_writeClose(LZ4_writeFile_t* lz4fWrite);

#ifdef __cplusplus
}
#endif

#endif /* LZ4_SIMD_LZ4FILE_H */
