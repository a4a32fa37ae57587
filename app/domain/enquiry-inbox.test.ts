import { describe, expect, it } from "vitest";
import { enquiryActionSchema, readEnquiryFilter, replyMailto } from "./enquiry-inbox";

describe("replyMailto", () => {
  it("addresses the enquirer with a subject naming the charity", () => {
    expect(replyMailto("alan.marsh@example.com", "MHAT")).toBe(
      "mailto:alan.marsh@example.com?subject=Re%3A%20your%20enquiry%20to%20MHAT",
    );
  });

  it("cannot be given extra headers by the address", () => {
    const link = replyMailto("a@example.com?bcc=x@example.net&body=hi", "MHAT");
    const url = new URL(link);
    expect([...url.searchParams.keys()]).toEqual(["subject"]);
    expect(link).toContain("a@example.com%3Fbcc%3Dx@example.net%26body%3Dhi");
  });
});

describe("enquiry inbox input", () => {
  it("shows unhandled enquiries unless all are asked for", () => {
    expect(readEnquiryFilter(null)).toBe("unhandled");
    expect(readEnquiryFilter("nonsense")).toBe("unhandled");
    expect(readEnquiryFilter("all")).toBe("all");
  });

  it("accepts only a known intent and an enquiry id", () => {
    const id = "6f1c2a4e-9a53-4d7a-8b0e-2f9e3c1d5a77";
    expect(enquiryActionSchema.safeParse({ intent: "handle", enquiryId: id }).success).toBe(true);
    expect(enquiryActionSchema.safeParse({ intent: "delete", enquiryId: id }).success).toBe(false);
    expect(enquiryActionSchema.safeParse({ intent: "handle", enquiryId: "1" }).success).toBe(false);
  });
});
