import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this many bytes an answer goes as it is: the headers and the work would outweigh the saving. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Answers (JSON, the sandbox's pages, the API document) compressed for clients that ask: brotli at a cheap level,
 * else gzip. The built SPA's files are compressed at build time and sent as they are (spa.ts), which this leaves
 * alone since they already carry their encoding. The live log stream writes to the socket itself and is never
 * compressed, which would hold its events in the compressor (ADR 0056). Request bodies are not decompressed.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
