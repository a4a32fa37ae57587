import { describe, expect, it } from "vitest";
import { mapLink, mapView } from "./map-view";

const at = (latitude: number, longitude: number) => ({ latitude, longitude });

describe("mapView", () => {
  it("shows London at zoom 8 when there is nothing to show", () => {
    expect(mapView([])).toEqual({ kind: "centre", center: [51.5074, -0.1278], zoom: 8 });
    expect(mapView([at(Number.NaN, 1), at(95, 0), at(0, 200)])).toEqual({
      kind: "centre",
      center: [51.5074, -0.1278],
      zoom: 8,
    });
  });

  it("centres on a single event at zoom 13, as the spec says", () => {
    expect(mapView([at(52.0567, 1.1482)])).toEqual({
      kind: "centre",
      center: [52.0567, 1.1482],
      zoom: 13,
    });
    // Two events at one address are one place.
    expect(mapView([at(51.9, 0.9), at(51.9, 0.9)])).toEqual({
      kind: "centre",
      center: [51.9, 0.9],
      zoom: 13,
    });
  });

  it("fits several events: the box from the southernmost-westernmost to the northernmost-easternmost", () => {
    // Ipswich, Sudbury, Colchester and Chelmsford.
    const view = mapView([
      at(52.0567, 1.1482),
      at(52.0383, 0.7307),
      at(51.8959, 0.8919),
      at(51.7356, 0.4685),
    ]);
    expect(view).toEqual({
      kind: "fit",
      bounds: [
        [51.7356, 0.4685],
        [52.0567, 1.1482],
      ],
      maxZoom: 13,
    });
  });

  it("leaves out a point that is not a real place", () => {
    expect(mapView([at(51.9, 0.9), at(Number.POSITIVE_INFINITY, 0), at(52, 1)])).toEqual({
      kind: "fit",
      bounds: [
        [51.9, 0.9],
        [52, 1],
      ],
      maxZoom: 13,
    });
  });
});

describe("the map link", () => {
  it("marks the coordinates when the event has them", () => {
    expect(mapLink({ latitude: 51.7356, longitude: 0.4685, address: "1 Test Street" })).toBe(
      "https://www.openstreetmap.org/?mlat=51.73560&mlon=0.46850#map=17/51.73560/0.46850",
    );
  });

  it("searches for the address when it has none", () => {
    expect(
      mapLink({ latitude: null, longitude: null, address: "1 Test Street, Chelmsford, CM1 1AA" }),
    ).toBe(
      "https://www.openstreetmap.org/search?query=1%20Test%20Street%2C%20Chelmsford%2C%20CM1%201AA",
    );
  });
});
