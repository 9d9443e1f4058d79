/**
 * The cookies of one call, without HTTP types: what the browser sent, and the cookies of the answer. The HTTP layer
 * implements it over the request and response (`http/browser.ts`); known-device and remembered-browser cookies
 * are read and written through it, so the services that use them take no request or response.
 */
export interface CookieJar {
  /** The value of a cookie the browser sent, if any. */
  cookie(name: string): string | undefined;
  /** Sets a cookie on the answer (a whole `Set-Cookie` value); it replaces one of the same name set before. */
  setCookie(setCookie: string): void;
}
