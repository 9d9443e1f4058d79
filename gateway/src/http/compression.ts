import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Bodies below this size go out uncompressed: compressing them costs more than the bytes it saves. */
export const COMPRESS_MIN_BYTES = 1024;
const API_PATH = /^\/api\//i;

/**
 * Compression of answers of at least {@link COMPRESS_MIN_BYTES}. Pages and files go through the compression
 * middleware as they are streamed. An API answer is sent whole (`res.send`, which `res.json` calls), so its size is
 * known before anything is written: the middleware is set up only for one that is big enough, and the many tiny
 * JSON answers of the light calls pay no compression work at all.
 */
export function compressBigAnswers(): RequestHandler {
  const compress = compression({ threshold: COMPRESS_MIN_BYTES });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!API_PATH.test(req.url)) return compress(req, res, next);
    const send = res.send;
    res.send = function sendMaybeCompressed(body?: unknown) {
      res.send = send;
      if ((typeof body === 'string' || Buffer.isBuffer(body)) && body.length >= COMPRESS_MIN_BYTES) {
        void compress(req, res, () => send.call(res, body));
        return res;
      }
      return send.call(res, body);
    };
    next();
  };
}

const compressForLane = compression({ threshold: COMPRESS_MIN_BYTES });

/**
 * Sends a whole JSON answer of a request answered before Express (the light-call lane, light-calls.ts) as
 * {@link compressBigAnswers} sends `res.json`'s: status 200, `no-store`, the JSON content type and its length, through
 * the same compression, which encodes it when it is big enough and the browser accepts an encoding. Works on plain
 * Node requests and responses.
 */
export function endJson(req: IncomingMessage, res: ServerResponse, text: string): void {
  const end = () => {
    res.statusCode = 200;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  };
  if (text.length < COMPRESS_MIN_BYTES) end();
  else void compressForLane(req as Request, res as Response, end);
}
