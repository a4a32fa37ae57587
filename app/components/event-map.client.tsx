import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { MapContainer, Marker, Popup, TileLayer } from "react-leaflet";
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

export default function LeafletMap({
  markers,
  tileUrl,
  center,
  zoom,
}: {
  markers: MapMarker[];
  tileUrl: string;
  center: [number, number];
  zoom: number;
}) {
  return (
    // Markers are not tab stops: every event on a map is also listed, with its own link, on the
    // page. The map itself stays one tab stop (arrow keys pan it, + and - zoom).
    <MapContainer
      center={center}
      zoom={zoom}
      scrollWheelZoom={false}
      keyboard
      className="leaflet-map"
    >
      <TileLayer
        url={tileUrl}
        attribution='&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
      />
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
