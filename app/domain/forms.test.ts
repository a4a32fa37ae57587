import { describe, expect, it } from "vitest";
import { contactFormSchema } from "./contact-form";
import { HONEYPOT_FIELD, formValues, isHoneypotFilled, parseForm } from "./forms";
import { NEWSLETTER_MESSAGES, newsletterFormMessage, newsletterSchema } from "./newsletter";

const validContact = {
  "first-name": " Alan ",
  "last-name": "Marsh",
  email: " Alan.Marsh@Example.com ",
  "phone-number": "01632 960 123",
  message: "Could you run an event for our club?",
};

describe("contact form", () => {
  it("accepts a complete enquiry and tidies it", () => {
    const result = parseForm(contactFormSchema, validContact);
    expect(result).toEqual({
      ok: true,
      data: { ...validContact, "first-name": "Alan", email: "alan.marsh@example.com" },
    });
  });

  it("gives one message per empty field, keeping what was typed", () => {
    const values = { ...validContact, "first-name": "", message: "   " };
    const result = parseForm(contactFormSchema, values);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      "first-name": "Enter your first name",
      message: "Enter your message",
    });
    expect(result.values).toEqual(values);
  });

  it("treats missing fields like empty ones", () => {
    const result = parseForm(contactFormSchema, {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fieldErrors)).toHaveLength(5);
  });

  it("rejects a malformed e-mail and phone number", () => {
    const result = parseForm(contactFormSchema, {
      ...validContact,
      email: "alan@",
      "phone-number": "call me",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.email).toMatch(/correct format/);
    expect(result.fieldErrors["phone-number"]).toMatch(/phone number/);
  });
});

describe("newsletter", () => {
  it("uses the spec's message when either field is empty", () => {
    for (const values of [{ name: "", email: "a@example.com" }, { name: "Ray", email: "" }, {}]) {
      const result = parseForm(newsletterSchema, values);
      expect(result.ok).toBe(false);
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(newsletterFormMessage(result.fieldErrors)).toBe(NEWSLETTER_MESSAGES.missing);
    }
  });

  it("reports a malformed address as an error line", () => {
    const result = parseForm(newsletterSchema, { name: "Ray", email: "ray@" });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(newsletterFormMessage(result.fieldErrors)).toMatch(/^Error: Enter an email address/);
  });

  it("defaults hear_about_event to true and lowercases the address", () => {
    const result = parseForm(newsletterSchema, { name: "Ray", email: "Ray@Example.com" });
    expect(result).toEqual({
      ok: true,
      data: { name: "Ray", email: "ray@example.com", hear_about_event: true },
    });
  });
});

describe("honeypot and form values", () => {
  it("spots a filled honeypot and leaves it out of the kept values", () => {
    const form = new FormData();
    form.set("name", "Ray");
    form.set(HONEYPOT_FIELD, "http://spam.example");
    expect(isHoneypotFilled(form)).toBe(true);
    expect(formValues(form)).toEqual({ name: "Ray" });
  });

  it("never keeps omitted fields such as passwords", () => {
    const form = new FormData();
    form.set("email", "a@example.com");
    form.set("password", "secret");
    expect(formValues(form, ["password"])).toEqual({ email: "a@example.com" });
  });
});

describe("control characters", () => {
  it("get a message on their own field, alongside the schema's messages, for any form", () => {
    const result = parseForm(contactFormSchema, {
      ...validContact,
      "first-name": "Al\u0000an",
      message: "line one\nline two\u0007",
      email: "",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors["first-name"]).toMatch(/character we cannot accept/);
    expect(result.fieldErrors.message).toMatch(/character we cannot accept/);
    expect(result.fieldErrors.email).toBe("Enter your email address");
    expect(result.values["first-name"]).toBe("Al\u0000an");
  });

  it("allow tabs and line breaks, which people do type in a message", () => {
    const result = parseForm(contactFormSchema, {
      ...validContact,
      message: "Dear team,\r\n\tcould you help?",
    });
    expect(result.ok).toBe(true);
  });

  it("report a date part on the date field itself", () => {
    const result = parseForm(contactFormSchema, { ...validContact, "dateOfBirth-day": "1\u0000" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors.dateOfBirth).toMatch(/character we cannot accept/);
  });
});

describe("line breaks (issue 14: CR/LF in single-line fields)", () => {
  it("refuses a last name that would forge a header line in the staff inbox's mail, keeping what was typed", () => {
    const values = { ...validContact, "last-name": "Marsh\r\nBcc: x@example.org" };
    const result = parseForm(contactFormSchema, values);
    expect(result).toEqual({
      ok: false,
      fieldErrors: { "last-name": "Enter this on one line, without line breaks" },
      values,
    });
  });

  it("keeps accepting a message over several lines", () => {
    const message = "Dear team,\r\nCould you run an event for our club?\r\n\r\nAlan";
    const result = parseForm(contactFormSchema, { ...validContact, message });
    expect(result.ok && result.data.message).toBe(message);
  });
});
