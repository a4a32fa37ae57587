import { describe, expect, it } from "vitest";
import { mailboxOf, recipientMailDecision } from "./recipient-mail";

describe("recipientMailDecision", () => {
  it("sends the first mail of a kind, then refuses the same kind until its window ends", () => {
    expect(recipientMailDecision({ sameKind: 0, anyKind: 0 })).toBe("send");
    expect(recipientMailDecision({ sameKind: 1, anyKind: 1 })).toBe("repeat");
  });

  it("sends other kinds until the address has had 4 mails of any kind in the hour", () => {
    expect(recipientMailDecision({ sameKind: 0, anyKind: 3 })).toBe("send");
    expect(recipientMailDecision({ sameKind: 0, anyKind: 4 })).toBe("over-limit");
    expect(recipientMailDecision({ sameKind: 0, anyKind: 40 })).toBe("over-limit");
  });

  it("names the hour's limit when both are reached: it is the one that lasts longer", () => {
    expect(recipientMailDecision({ sameKind: 1, anyKind: 4 })).toBe("over-limit");
  });

  it("takes other limits", () => {
    expect(recipientMailDecision({ sameKind: 1, anyKind: 1 }, { sameKind: 2, anyKind: 2 })).toBe(
      "send",
    );
    expect(recipientMailDecision({ sameKind: 1, anyKind: 2 }, { sameKind: 2, anyKind: 2 })).toBe(
      "over-limit",
    );
  });
});

describe("mailboxOf", () => {
  it("counts one mailbox however the address is written", () => {
    expect(mailboxOf(" Victim@Example.com ")).toBe("victim@example.com");
    expect(mailboxOf("victim+news@example.com")).toBe("victim@example.com");
    expect(mailboxOf("vic.tim+1@gmail.com")).toBe("victim@gmail.com");
    expect(mailboxOf("Vic.Tim@GoogleMail.com")).toBe("victim@gmail.com");
  });

  it("keeps dots outside Gmail, and addresses it cannot read as they are", () => {
    expect(mailboxOf("first.last@example.org")).toBe("first.last@example.org");
    expect(mailboxOf("+tag@example.org")).toBe("+tag@example.org");
    expect(mailboxOf("not-an-address")).toBe("not-an-address");
  });
});
