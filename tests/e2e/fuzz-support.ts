// Helpers for tests/e2e/fuzz.test.ts: raw HTTP requests (node:http, so that the test decides every
// header and byte), body encoders, fast-check arbitraries and the child server's memory.
import { readFileSync } from "node:fs";
import http from "node:http";
import fc from "fast-check";

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export interface FuzzRequest {
  method: string;
  /** Path and query, already percent-encoded (node:http refuses raw spaces and non-Latin-1). */
  path: string;
  /** undefined: no Content-Type header at all. */
  contentType?: string;
  /** Sent with a Content-Length. */
  body?: Buffer;
  /** Sent chunked (Transfer-Encoding: chunked, no Content-Length), piece by piece. */
  chunked?: Buffer[];
  /**
   * Write `body` 64 KB at a time and pause 50 ms after the first piece, so that an answer the
   * server gives from the headers alone (413) is read before it closes the connection.
   */
  slow?: boolean;
  cookie?: string;
  /** What kind of body this is, for the report ("urlencoded", "multipart without boundary" …). */
  kind: string;
}

export interface Outcome {
  /** undefined when no answer (status line) arrived. */
  status?: number;
  /** The first 64 KB of the answer. */
  body: string;
  /** A socket error or timeout, if any (an answer may still have arrived before it). */
  error?: string;
  /** Size of the status line and headers of the answer. */
  headerBytes?: number;
  ms: number;
}

const MAX_KEPT = 64 * 1024;

/** Sends one request on a fresh connection and resolves (never rejects) with what came back. */
export function send(baseUrl: string, req: FuzzRequest, timeoutMs = 30_000): Promise<Outcome> {
  const base = new URL(baseUrl);
  return new Promise((resolve) => {
    const started = Date.now();
    // Keep-alive, as browsers send: a server that answers before reading the whole body then reads
    // and drops the rest instead of closing the connection under the upload (which can lose the
    // answer). The connection is closed here once the answer has arrived.
    const headers: Record<string, string> = {
      "user-agent": "mhat-fuzz-test",
      accept: "*/*",
      connection: "keep-alive",
    };
    // The same-origin guard refuses state-changing requests from other origins; we test what lies behind it.
    if (req.method !== "GET" && req.method !== "HEAD") headers.origin = base.origin;
    if (req.contentType !== undefined) headers["content-type"] = req.contentType;
    if (req.cookie) headers.cookie = req.cookie;
    if (req.body) headers["content-length"] = String(req.body.length);

    const kept: Buffer[] = [];
    let keptBytes = 0;
    let status: number | undefined;
    let headerBytes: number | undefined;
    let done = false;
    const text = () => Buffer.concat(kept).toString("utf8");
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ status, body: text(), error, headerBytes, ms: Date.now() - started });
    };

    let request: http.ClientRequest;
    try {
      request = http.request({
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.path,
        headers,
        agent: false,
        // Read answers with huge headers too, to report their size rather than fail to parse them.
        maxHeaderSize: 1024 * 1024,
      });
    } catch (error) {
      // A request node:http itself refuses to send is a bug in this test, not in the server.
      throw new Error(`node:http refused to send ${describeRequest(req)}: ${String(error)}`);
    }
    const timer = setTimeout(() => {
      finish(`no complete answer within ${timeoutMs} ms`);
      request.destroy();
    }, timeoutMs);

    request.on("response", (response) => {
      status = response.statusCode;
      headerBytes = response.rawHeaders.reduce((sum, item) => sum + item.length + 2, 20);
      response.on("data", (chunk: Buffer) => {
        if (keptBytes < MAX_KEPT) kept.push(chunk);
        keptBytes += chunk.length;
      });
      response.on("end", () => {
        finish();
        request.destroy(); // stop uploading anything the server did not want
      });
      response.on("error", (error: NodeJS.ErrnoException) =>
        finish(`answer cut off: ${error.code ?? error.message}`),
      );
    });
    request.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));

    const piece = 64 * 1024;
    const pieces: Buffer[] | undefined = req.chunked
      ? req.chunked
      : req.slow && req.body
        ? Array.from({ length: Math.ceil(req.body.length / piece) }, (_, i) =>
            req.body!.subarray(i * piece, (i + 1) * piece),
          )
        : undefined;
    if (pieces) {
      const writable = () =>
        new Promise<void>((resume) => {
          const go = () => {
            request.off("drain", go);
            request.off("close", go);
            resume();
          };
          request.on("drain", go);
          request.on("close", go);
        });
      void (async () => {
        for (const [index, chunk] of pieces.entries()) {
          // Let an answer already on the socket be read before writing more: a write that fails
          // (the server closed the connection) would otherwise destroy the socket unread.
          await new Promise((resume) => setTimeout(resume, req.slow && index === 1 ? 50 : 0));
          if (done || request.destroyed) return;
          if (!request.write(chunk)) await writable();
        }
        if (!done && !request.destroyed) request.end();
      })().catch(() => {});
    } else {
      request.end(req.body);
    }
  });
}

/** A readable, truncated picture of a body: control characters escaped, long bodies cut. */
export function preview(body: Buffer, max = 300): string {
  const shown = JSON.stringify(body.subarray(0, max).toString("utf8"));
  return body.length > max ? `${shown}…(+${body.length - max} bytes)` : shown;
}

export function describeRequest(req: FuzzRequest): string {
  const chunkedBytes = req.chunked?.reduce((sum, piece) => sum + piece.length, 0) ?? 0;
  const size = req.body
    ? `${req.body.length} bytes`
    : req.chunked
      ? `${chunkedBytes} bytes, chunked`
      : "no body";
  const shown =
    req.body ?? (chunkedBytes <= 1024 * 1024 ? Buffer.concat(req.chunked ?? []) : req.chunked![0]!);
  const body =
    req.body || req.chunked ? `: ${preview(shown)}${shown.length < chunkedBytes ? "…" : ""}` : "";
  const cookie = req.cookie ? ` | cookie: ${preview(Buffer.from(req.cookie, "latin1"), 80)}` : "";
  return `${req.method} ${req.path} | content-type: ${req.contentType === undefined ? "(none)" : JSON.stringify(req.contentType)} | ${req.kind} (${size})${body}${cookie}`;
}

/** Gives a request a readable form in fast-check's counterexample report. */
export function readable(req: FuzzRequest): FuzzRequest {
  Object.defineProperty(req, fc.toStringMethod, {
    value: () => describeRequest(req),
    enumerable: false,
  });
  return req;
}

// ---------------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------------

/**
 * UTF-8, except that a lone surrogate becomes its 3-byte (WTF-8) form instead of U+FFFD, so that
 * "%ED%A0%80" style escapes reach the server.
 */
export function wtf8(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (cp < 0x80) bytes.push(cp);
    else if (cp < 0x800) bytes.push(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000)
      bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else
      bytes.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      );
  }
  return Buffer.from(bytes);
}

/** Percent-encodes every byte of the WTF-8 form except the unreserved characters. */
export function pct(text: string): string {
  let out = "";
  for (const byte of wtf8(text)) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

export type Entries = [string, unknown][];

const asText = (value: unknown) =>
  typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);

export function urlencoded(entries: Entries, rawTail = ""): Buffer {
  return Buffer.from(
    entries.map(([key, value]) => `${pct(key)}=${pct(asText(value))}`).join("&") + rawTail,
    "latin1",
  );
}

export type MultipartBreakage =
  "none" | "truncate" | "no-closing-boundary" | "garbage" | "lf-only" | "no-disposition";

export function multipart(
  entries: Entries,
  boundary: string,
  options: { breakage: MultipartBreakage; cut: number; fileField: boolean; garbage: Buffer },
): Buffer {
  const eol = options.breakage === "lf-only" ? "\n" : "\r\n";
  const parts: Buffer[] = [];
  entries.forEach(([key, value], index) => {
    const file = options.fileField && index === 0;
    const disposition =
      options.breakage === "no-disposition"
        ? `X-Nothing: here${eol}`
        : `Content-Disposition: form-data; name="${key}"${file ? `; filename="note.txt"${eol}Content-Type: text/plain` : ""}${eol}`;
    parts.push(
      Buffer.from(`--${boundary}${eol}${disposition}${eol}`, "utf8"),
      wtf8(asText(value)),
      Buffer.from(eol),
    );
  });
  if (options.breakage !== "no-closing-boundary") parts.push(Buffer.from(`--${boundary}--${eol}`));
  let body = Buffer.concat(parts);
  if (options.breakage === "garbage") body = Buffer.concat([options.garbage, body.subarray(7)]);
  if (options.breakage === "truncate")
    body = body.subarray(0, Math.floor((body.length * options.cut) / 100));
  return body;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

/**
 * Characters that trip up parsers and databases. NUL, which Postgres refuses in text, is drawn
 * about half the time; lone surrogates are encoded as WTF-8 in forms and as \ud800 in JSON.
 */
export const controlChar = fc.oneof(
  { weight: 8, arbitrary: fc.constant("\u0000") },
  {
    weight: 8,
    arbitrary: fc.constantFrom(
      "\u0001",
      "\u0008",
      "\u000b",
      "\u000c",
      "\u001b",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
      "\u2028",
      "\ufeff",
      "\uffff",
      "\r\n",
      "\ud800",
      "\udfff",
    ),
  },
);

/** Random text of every sort: unicode, control characters, long, numbers, empty. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.string({ maxLength: 6 }), controlChar), { minLength: 1, maxLength: 8 })
      .map((parts) => parts.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("a", "\u0000", "é", "𝕏", " ", "%"),
        fc.integer({ min: 101, max: 6_000 }), // over every field's limit; bodies over 100 KB have their own test
      )
      .map(([char, times]) => char.repeat(times)),
  },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "null",
      "undefined",
      "[object Object]",
      "0",
      "-1",
      "1e400",
      "NaN",
      "true",
    ),
  },
);

/** Inserts a control character (often NUL) somewhere into an otherwise valid value. */
export const withControlChar = (valid: fc.Arbitrary<string>) =>
  fc.tuple(valid, controlChar, fc.nat()).map(([value, char, at]) => {
    const index = value.length === 0 ? 0 : at % (value.length + 1);
    return value.slice(0, index) + char + value.slice(index);
  });

/** Ways to spoil one field of an otherwise valid form. */
const mutation = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("control" as const),
      char: controlChar,
      at: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("replace" as const), value: anyText }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("json" as const),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
);

export type FieldSpec = Record<string, fc.Arbitrary<unknown>>;

/** Unknown keys, repeated known keys, prototype names, the honeypot. */
export const extraKey = (known: string[]) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
    { weight: 1, arbitrary: anyText },
    { weight: 2, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant("x") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "toString",
        "_data",
        "_routes",
        "intent",
        "redirectTo",
        "company_website",
        "",
      ),
    },
  );

/**
 * The fields of one form or JSON body. Most cases are a valid submission with one or two fields
 * spoiled (so that they reach the service and the database); the rest are independent chaos.
 * `same` copies one field into another (a password and its confirmation) most of the time.
 */
export function entriesArb(spec: FieldSpec, same?: [string, string]): fc.Arbitrary<Entries> {
  const keys = Object.keys(spec);
  const valid = fc.record(spec);
  const nearValid = fc
    .tuple(
      valid,
      fc.array(fc.tuple(keys.length ? fc.constantFrom(...keys) : fc.constant("x"), mutation), {
        minLength: 1,
        maxLength: 2,
      }),
      fc.integer({ min: 0, max: 9 }).map((n) => n > 0), // copy `same` nine times in ten
    )
    .map(([values, mutations, copy]) => {
      const out: Record<string, unknown> = { ...values };
      if (same && copy) out[same[1]] = out[same[0]];
      for (const [key, change] of mutations) {
        const current = typeof out[key] === "string" ? (out[key] as string) : "";
        if (change.kind === "delete") delete out[key];
        else if (change.kind === "replace") out[key] = change.value;
        else if (change.kind === "json") out[key] = change.value;
        else {
          const at = change.at % (current.length + 1);
          out[key] = current.slice(0, at) + change.char + current.slice(at);
        }
      }
      return Object.entries(out);
    });
  const chaos = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          keys.map((key) => [
            key,
            fc.option(fc.oneof(spec[key]!, withControlChar(spec[key]!.map(asText)), anyText), {
              freq: 6,
              nil: undefined,
            }),
          ]),
        ),
      ),
      fc.array(fc.tuple(extraKey(keys), anyText), { maxLength: 3 }),
    )
    .map(([known, extra]) => [
      ...Object.entries(known).filter(([, value]) => value !== undefined),
      ...(extra as Entries),
    ]);
  const withExtras = fc
    .tuple(nearValid, fc.array(fc.tuple(extraKey(keys), anyText), { maxLength: 2 }))
    .map(([entries, extra]) => [...entries, ...extra] as Entries);
  return fc.oneof(
    { weight: 5, arbitrary: nearValid },
    { weight: 1, arbitrary: withExtras },
    { weight: 2, arbitrary: chaos },
  );
}

/** Header-safe text (node:http refuses CR, LF, NUL and DEL in header values). */
export const headerText = (maxLength: number) =>
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
      .map((code) => String.fromCharCode(code)),
    maxLength,
  });

const rawFragment = fc.constantFrom(
  "%00",
  "%FF",
  "%C0%80", // overlong NUL
  "%E0%80%80", // overlong NUL, 3 bytes
  "%F0%80%80%80",
  "%ED%A0%80", // lone surrogate
  "%EF%BF%BF",
  "%",
  "%%",
  "%Z",
  "%0",
  "%G1",
  "+",
  "%2B",
  "%0D%0A",
  "&",
  "=",
);

/** A stretch of raw text to append to a urlencoded body: broken escapes, stray separators. */
export const rawTail = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  { weight: 2, arbitrary: rawFragment },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("&", "&x=", "&%00=", "&redirectTo=", "=", "&&=&"), rawFragment)
      .map(([a, b]) => a + b),
  },
);

/** A query string: known and random keys, repeated keys, broken escapes. */
export function queryArb(known: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const keys = Object.keys(known);
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length ? fc.constantFrom(...keys) : fc.constant("q") },
    { weight: 1, arbitrary: anyText.map(pct) },
    { weight: 1, arbitrary: rawFragment },
  );
  const value = (k: string) =>
    fc.oneof(
      { weight: 3, arbitrary: (Object.hasOwn(known, k) ? known[k]! : anyText).map(pct) },
      {
        weight: 3,
        arbitrary: withControlChar(Object.hasOwn(known, k) ? known[k]! : fc.constant("x")).map(pct),
      },
      { weight: 2, arbitrary: anyText.map(pct) },
      {
        weight: 2,
        arbitrary: fc
          .array(fc.oneof(rawFragment, fc.string({ maxLength: 5 }).map(pct)), {
            minLength: 1,
            maxLength: 4,
          })
          .map((parts) => parts.join("")),
      },
    );
  const pair = key.chain((k) =>
    fc.oneof(
      { weight: 8, arbitrary: value(k).map((v) => `${k}=${v}`) },
      { weight: 1, arbitrary: fc.constant(k) },
      { weight: 1, arbitrary: fc.constant(`${k}=`) },
    ),
  );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join("&"));
}

// ---------------------------------------------------------------------------------------------
// Bodies with content types
// ---------------------------------------------------------------------------------------------

export interface EncodedBody {
  contentType?: string;
  body?: Buffer;
  kind: string;
}

const FORM_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded;charset=UTF-8",
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "application/x-www-form-urlencoded; charset=bogus",
  "application/x-www-form-urlencoded, application/json",
];
const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/JSON",
  "application/json; charset=utf-16",
  "application/merge-patch+json",
  "text/json",
];
const GARBAGE_TYPES = [
  "multipart/form-data; boundary=",
  'multipart/form-data; boundary=""',
  "multipart/mixed; boundary=x",
  "multipart/form-data; boundary=" + "b".repeat(300),
  "form-data",
  ";",
  "*/*",
  "text/html",
  "image/png",
  "application/octet-stream",
  "application/x-www-form-urlencoded;;;;=",
  "application/xml; charset=utf-8",
  "\u00ff\u00fe",
];

export function bodyArb(
  entries: fc.Arbitrary<Entries>,
  preferred: "form" | "json",
): fc.Arbitrary<EncodedBody> {
  const urlencodedBody = fc
    .tuple(entries, fc.constantFrom(...FORM_TYPES), rawTail)
    .map(([e, type, tail]) => ({
      contentType: type,
      body: urlencoded(e, tail),
      kind: `urlencoded${tail ? ` + raw ${JSON.stringify(tail)}` : ""}`,
    }));
  const multipartBody = fc
    .tuple(
      entries,
      fc.constantFrom("ok", "ok", "missing", "empty", "wrong", "quoted"),
      fc.constantFrom<MultipartBreakage>(
        "none",
        "none",
        "truncate",
        "no-closing-boundary",
        "garbage",
        "lf-only",
        "no-disposition",
      ),
      fc.integer({ min: 0, max: 99 }),
      fc.boolean(),
      fc.uint8Array({ maxLength: 40 }),
    )
    .map(([e, header, breakage, cut, fileField, garbage]) => {
      const boundary = "----fuzzBoundary7MA4YWxkTrZu0gW";
      const contentType = {
        ok: `multipart/form-data; boundary=${boundary}`,
        quoted: `multipart/form-data; boundary="${boundary}"`,
        missing: "multipart/form-data",
        empty: "multipart/form-data; boundary=",
        wrong: "multipart/form-data; boundary=somethingElse",
      }[header]!;
      const body = multipart(e, boundary, {
        breakage,
        cut,
        fileField,
        garbage: Buffer.from(garbage),
      });
      const what = header === "ok" || header === "quoted" ? "with boundary" : `boundary ${header}`;
      return {
        contentType,
        body,
        kind: `multipart (${what}, body ${breakage}${fileField ? ", file part" : ""})`,
      };
    });
  const jsonBody = fc
    .tuple(
      entries,
      fc.constantFrom(...JSON_TYPES),
      fc.constantFrom("object", "object", "object", "array", "scalar"),
    )
    .map(([e, type, shape]) => {
      const value =
        shape === "object" ? Object.fromEntries(e) : shape === "array" ? e : (e[0]?.[1] ?? null);
      return {
        contentType: type,
        body: Buffer.from(JSON.stringify(value) ?? "null", "utf8"),
        kind: `json (${shape})`,
      };
    });
  const brokenJson = fc
    .tuple(
      entries,
      fc.constantFrom(...JSON_TYPES),
      fc.constantFrom(
        "truncate",
        "trailing",
        "raw-nul",
        "bom",
        "single-quotes",
        "deep",
        "invalid-utf8",
        "empty",
        "duplicate-keys",
      ),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 10, max: 3000 }),
    )
    .map(([e, type, breakage, cut, depth]) => {
      const text = JSON.stringify(Object.fromEntries(e));
      const bodies: Record<string, () => Buffer> = {
        truncate: () => Buffer.from(text.slice(0, Math.floor((text.length * cut) / 100))),
        trailing: () => Buffer.from(`${text},}`),
        "raw-nul": () =>
          Buffer.from(
            `{"name":"a\u0000b","email":"a\u0000@example.com","errorMessage":"x\u0000","access_code":"\u0000"}`,
          ),
        bom: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
        "single-quotes": () => Buffer.from(text.replaceAll('"', "'")),
        deep: () => Buffer.from("[".repeat(depth) + "]".repeat(depth)),
        "invalid-utf8": () =>
          Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]),
            Buffer.from('","email":"a@example.com","errorMessage":"x"}'),
          ]),
        empty: () => Buffer.alloc(0),
        "duplicate-keys": () =>
          Buffer.from(`{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},${text.slice(1)}`),
      };
      return { contentType: type, body: bodies[breakage]!(), kind: `broken json (${breakage})` };
    });
  const other = fc
    .tuple(
      entries,
      fc.constantFrom(
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/xml",
        "text/xml",
        "none",
        "garbage",
        "garbage-listed",
        "no-body",
      ),
      headerText(40),
      fc.constantFrom(...GARBAGE_TYPES),
    )
    .map(([e, choice, garbage, listed]): EncodedBody => {
      const lines = e.map(([k, v]) => `${k}=${asText(v)}`).join("\r\n");
      switch (choice) {
        case "text/plain":
        case "text/plain;charset=UTF-8":
          return { contentType: choice, body: wtf8(lines), kind: "text/plain form" };
        case "application/xml":
        case "text/xml":
          return {
            contentType: choice,
            body: wtf8(
              `<?xml version="1.0"?><form>${e.map(([k, v]) => `<${k}>${asText(v)}</${k}>`).join("")}</form>`,
            ),
            kind: "xml",
          };
        case "none":
          return {
            contentType: undefined,
            body: urlencoded(e),
            kind: "urlencoded bytes, no content type",
          };
        case "garbage":
          return {
            contentType: garbage,
            body: urlencoded(e),
            kind: "urlencoded bytes, random content type",
          };
        case "garbage-listed":
          return {
            contentType: listed,
            body: urlencoded(e),
            kind: "urlencoded bytes, odd content type",
          };
        default:
          return { contentType: FORM_TYPES[0], body: undefined, kind: "no body at all" };
      }
    });
  return fc.oneof(
    // Mostly what a browser (or the site's own script) sends, so that the values reach the database.
    { weight: preferred === "form" ? 14 : 2, arbitrary: urlencodedBody },
    { weight: 3, arbitrary: multipartBody },
    { weight: preferred === "json" ? 14 : 2, arbitrary: jsonBody },
    { weight: preferred === "json" ? 4 : 1, arbitrary: brokenJson },
    { weight: 3, arbitrary: other },
  );
}

// ---------------------------------------------------------------------------------------------
// The server process
// ---------------------------------------------------------------------------------------------

/** Resident memory of a process in MB, or undefined when it cannot be read. */
export function residentMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The site's own forms
// ---------------------------------------------------------------------------------------------

export interface FormField {
  name: string;
  element: string;
  type?: string;
  value?: string;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}="([^"]*)"`, "i").exec(attributes);
  return match ? decodeEntities(match[1]!) : undefined;
}

/**
 * The fields of the page's own post forms (those without an action, or whose action is `path`),
 * as the server rendered them: disabled fields are left out, as a browser leaves them out.
 */
export function formFields(html: string, path: string): FormField[] {
  const fields: FormField[] = [];
  for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attributes = form[1]!;
    if (attribute(attributes, "method")?.toLowerCase() !== "post") continue;
    const action = attribute(attributes, "action");
    if (action !== undefined && new URL(action, "http://localhost").pathname !== path) continue;
    for (const element of form[2]!.matchAll(/<(input|select|textarea|button)\b([^>]*)>/gi)) {
      const attrs = element[2]!;
      const name = attribute(attrs, "name");
      if (!name || /(?:^|\s)disabled(?:=|\s|$)/i.test(attrs)) continue;
      if (fields.some((field) => field.name === name)) continue;
      fields.push({
        name,
        element: element[1]!.toLowerCase(),
        type: attribute(attrs, "type"),
        value: attribute(attrs, "value"),
      });
    }
  }
  return fields;
}

/** Sometimes send a body chunked (no Content-Length), the way a streaming client does. */
export const chunkedTransfer = fc.oneof(
  { weight: 5, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);

export function withTransfer(
  encoded: EncodedBody,
  chunked: boolean,
): Omit<FuzzRequest, "method" | "path"> {
  if (!chunked || !encoded.body || encoded.body.length === 0) return encoded;
  return {
    contentType: encoded.contentType,
    // In 16 KB pieces, so that an early answer is read before the server closes the connection.
    chunked: Array.from({ length: Math.ceil(encoded.body.length / 16384) }, (_, i) =>
      encoded.body!.subarray(i * 16384, (i + 1) * 16384),
    ),
    kind: `${encoded.kind}, sent chunked`,
  };
}
