import http from "node:http";
import https from "node:https";

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One HTTP request from a chosen local address (127.0.0.2, 127.0.0.3 …: all loopback), so a test
 * can be several clients at once without trusting any forwarded header. An https:// address is
 * checked against `ca` (a test's own certificate).
 */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {},
): Promise<RawResponse> {
  const transport = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      { method: init.method ?? "GET", headers: init.headers, localAddress, ca: init.ca },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}
