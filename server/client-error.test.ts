import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { answerClientError } from "./client-error";

/** A stand-in for the connection: what the server writes to it is collected. */
function connection() {
  const socket = new PassThrough();
  const written: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => written.push(chunk));
  return { socket, text: () => Buffer.concat(written).toString("latin1") };
}

const errorWith = (code: string) => Object.assign(new Error(code), { code });

describe("answerClientError", () => {
  it("answers 431 to headers or an address too long to read, then closes", async () => {
    const { socket, text } = connection();
    answerClientError(errorWith("HPE_HEADER_OVERFLOW"), socket);
    await new Promise((resolve) => socket.once("finish", resolve));
    expect(text()).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(text()).toContain("Connection: close\r\n");
  });

  it("answers 400 to any other request it cannot read", async () => {
    const { socket, text } = connection();
    answerClientError(errorWith("HPE_INVALID_METHOD"), socket);
    await new Promise((resolve) => socket.once("finish", resolve));
    expect(text()).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  });

  it("writes nothing to a connection the client has already reset", () => {
    const { socket, text } = connection();
    answerClientError(errorWith("ECONNRESET"), socket);
    expect(socket.destroyed).toBe(true);
    expect(text()).toBe("");
  });
});
