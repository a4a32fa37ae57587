import { describe, expect, it } from "vitest";
import { baseURL, query } from "./support";

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(baseURL() + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("POST /api/subscriptions", () => {
  it("subscribes, and a second time is still a success with one row", async () => {
    const email = `api-${Date.now()}@example.com`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await postJson("/api/subscriptions", {
        name: "Api Reader",
        email,
        hear_about_event: true,
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        status: "success",
        message: "Successfully subscribed to the newsletter!",
      });
    }
    expect(
      await query("select 1 from newsletter_subscription where email = $1", [email]),
    ).toHaveLength(1);
  });

  it("answers 400 with the spec's message when a field is missing", async () => {
    const response = await postJson("/api/subscriptions", { name: "No Email" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toBe("Please provide both name and email.");
    expect(body.details.fields.email).toBe("Enter your email address");
  });

  it("answers 400 to a malformed e-mail and to broken JSON, 415 to a form post", async () => {
    expect((await postJson("/api/subscriptions", { name: "A", email: "nope" })).status).toBe(400);
    const broken = await postJson("/api/subscriptions", "{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "The body is not valid JSON" });
    const form = await fetch(`${baseURL()}/api/subscriptions`, {
      method: "POST",
      body: new URLSearchParams({ name: "A" }),
    });
    expect(form.status).toBe(415);
  });

  it("answers 405 to GET", async () => {
    const response = await fetch(`${baseURL()}/api/subscriptions`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });
});

describe("POST /api/logs/error", () => {
  it("stores a report", async () => {
    const message = `Test error ${Date.now()}`;
    const response = await postJson("/api/logs/error", {
      errorMessage: message,
      description: "stack",
      page: "/news",
    });
    expect(response.status).toBe(204);
    expect(
      await query("select page from client_error where error_message = $1", [message]),
    ).toEqual([{ page: "/news" }]);
  });

  it("refuses a report without a message, and one over the size limit", async () => {
    expect((await postJson("/api/logs/error", { description: "no message" })).status).toBe(400);
    const tooBig = await postJson("/api/logs/error", {
      errorMessage: "x",
      description: "y".repeat(20_000),
    });
    expect(tooBig.status).toBe(413);
  });

  it("refuses a cross-site post", async () => {
    const response = await postJson(
      "/api/logs/error",
      { errorMessage: "x" },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
  });
});

describe("health", () => {
  it("answers 200 once the database answers", async () => {
    const response = await fetch(`${baseURL()}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });
});
