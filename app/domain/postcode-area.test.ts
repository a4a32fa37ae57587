import { describe, expect, it } from "vitest";
import { postcodeArea } from "./postcode-area";

describe("postcodeArea", () => {
  it.each([
    ["CO4 3JL", "CO4 3JL", "CO"],
    ["co43jl", "CO4 3JL", "CO"],
    ["  cm1   2ab ", "CM1 2AB", "CM"],
    ["E1 6AN", "E1 6AN", "E"],
    ["EC1A 1BB", "EC1A 1BB", "EC"],
    ["W1D 3QU", "W1D 3QU", "W"],
    ["CO4", "CO4", "CO"],
    ["ip1", "IP1", "IP"],
  ])("reads %j as %s, area %s", (typed, postcode, area) => {
    expect(postcodeArea(typed)).toEqual({ postcode, area });
  });

  it.each([
    ["Colchester"],
    ["CO"],
    ["Ipswich IP1"],
    [""],
    ["   "],
    ["1234"],
    ["CO4 3J"],
    [undefined],
  ])("finds no postcode in %j", (typed) => {
    expect(postcodeArea(typed)).toBeNull();
  });
});
