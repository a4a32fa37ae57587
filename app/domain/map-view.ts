// No imports: the map runs in the browser.

export interface MapPoint {
  latitude: number;
  longitude: number;
}

/** London, where the map centres when it has no event to show. */
export const LONDON_CENTRE: [number, number] = [51.5074, -0.1278];
export const SINGLE_EVENT_ZOOM = 13;
export const OVERVIEW_ZOOM = 8;

/** South-west and north-east corners, as Leaflet takes them: [[south, west], [north, east]]. */
export type MapBounds = [[number, number], [number, number]];

export type MapView =
  | { kind: "centre"; center: [number, number]; zoom: number }
  | { kind: "fit"; bounds: MapBounds; maxZoom: number };

/**
 * What the map shows. The spec's rule: one event at zoom 13; otherwise London at zoom 8. London
 * at zoom 8 cut off the Essex and Suffolk pins, so several events are fitted instead, never
 * closer than zoom 13; with none, London at zoom 8 still. Points that are not real places
 * (out of range or not numbers) are left out.
 */
export function mapView(points: readonly MapPoint[]): MapView {
  const real = points.filter(
    ({ latitude, longitude }) =>
      Number.isFinite(latitude) &&
      Number.isFinite(longitude) &&
      Math.abs(latitude) <= 90 &&
      Math.abs(longitude) <= 180,
  );
  if (real.length === 0) return { kind: "centre", center: LONDON_CENTRE, zoom: OVERVIEW_ZOOM };
  const latitudes = real.map((point) => point.latitude);
  const longitudes = real.map((point) => point.longitude);
  const south = Math.min(...latitudes);
  const north = Math.max(...latitudes);
  const west = Math.min(...longitudes);
  const east = Math.max(...longitudes);
  // One place (one event, or several at the same address): the spec's close view of it.
  if (south === north && west === east)
    return { kind: "centre", center: [south, west], zoom: SINGLE_EVENT_ZOOM };
  return {
    kind: "fit",
    bounds: [
      [south, west],
      [north, east],
    ],
    maxZoom: SINGLE_EVENT_ZOOM,
  };
}

/**
 * A link to the place on OpenStreetMap: a marker at the event's coordinates when it has them,
 * otherwise a search for its address.
 */
export function mapLink(place: {
  latitude: number | null;
  longitude: number | null;
  address: string;
}): string {
  if (place.latitude !== null && place.longitude !== null) {
    const lat = place.latitude.toFixed(5);
    const lon = place.longitude.toFixed(5);
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  }
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(place.address)}`;
}
