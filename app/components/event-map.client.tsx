import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect } from "react";
import { AttributionControl, MapContainer, Marker, Popup, TileLayer, useMap } from "react-leaflet";
import { mapView, type MapView } from "#app/domain/map-view";
import type { MapMarker } from "./event-map";

// Our own marker, drawn in SVG: no image files to bundle, and no inline style attributes (CSP).
const markerIcon = L.divIcon({
  className: "map-marker",
  html:
    '<svg viewBox="0 0 32 40" width="32" height="40" aria-hidden="true" focusable="false">' +
    '<path d="M16 1C8 1 2 7 2 14.5 2 25 16 39 16 39s14-14 14-24.5C30 7 24 1 16 1z" fill="#13294b" stroke="#fff" stroke-width="2"/>' +
    '<circle cx="16" cy="14.5" r="5.5" fill="#2ec4b6"/></svg>',
  iconSize: [32, 40],
  iconAnchor: [16, 40],
  popupAnchor: [0, -36],
});

/** Room around the fitted points for the whole pin: it stands 40 px above its point, 32 px wide. */
const FIT_PADDING: L.FitBoundsOptions = { paddingTopLeft: [20, 48], paddingBottomRight: [20, 8] };

/** Shows the view, and shows it again whenever the markers change (a new search). */
function FitView({ view }: { view: MapView }) {
  const map = useMap();
  const key = JSON.stringify(view);
  useEffect(() => {
    if (view.kind === "centre") map.setView(view.center, view.zoom);
    else map.fitBounds(view.bounds, { ...FIT_PADDING, maxZoom: view.maxZoom });
    // The key stands for the view: a new array with the same points is the same view.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

export default function LeafletMap({
  markers,
  tileUrl,
}: {
  markers: MapMarker[];
  tileUrl: string;
}) {
  const view = mapView(markers);
  const start =
    view.kind === "centre"
      ? { center: view.center, zoom: view.zoom }
      : { bounds: view.bounds, boundsOptions: { ...FIT_PADDING, maxZoom: view.maxZoom } };
  return (
    // Markers are not tab stops: every event on a map is also listed, with its own link, on the
    // page. The map itself stays one tab stop (arrow keys pan it, + and - zoom).
    // On a phone one finger scrolls the page, not the map, which is half the screen: the map
    // still zooms with two fingers and its buttons, and every event is in the list below it.
    <MapContainer
      {...start}
      scrollWheelZoom={false}
      dragging={!L.Browser.mobile}
      keyboard
      attributionControl={false}
      className="leaflet-map"
    >
      {/* The tiles' licence, without Leaflet's own advert, so that it fits a phone's map. */}
      <AttributionControl prefix={false} />
      <TileLayer
        url={tileUrl}
        attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
      />
      <FitView view={view} />
      {markers.map((marker) => (
        <Marker
          key={marker.id}
          position={[marker.latitude, marker.longitude]}
          icon={markerIcon}
          title={marker.name}
          alt={marker.name}
          keyboard={false}
        >
          <Popup>{marker.name}</Popup>
        </Marker>
      ))}
    </MapContainer>
  );
}
