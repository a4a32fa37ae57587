/**
 * A horizontal bar chart in SVG with a text alternative: the figure's caption and a data table
 * that screen readers (and anyone who prefers numbers) can read.
 */
export function BarChart({
  title,
  bars,
  unit = "",
}: {
  title: string;
  bars: { label: string; value: number }[];
  unit?: string;
}) {
  const max = Math.max(...bars.map((bar) => bar.value));
  const rowHeight = 44;
  const labelWidth = 190;
  const chartWidth = 560;
  const barSpace = chartWidth - labelWidth - 80;
  return (
    <figure className="stack">
      <svg
        className="chart"
        viewBox={`0 0 ${chartWidth} ${bars.length * rowHeight + 8}`}
        width={chartWidth}
        height={bars.length * rowHeight + 8}
        aria-hidden
        focusable={false}
      >
        {bars.map((bar, index) => {
          const width = Math.max(2, (bar.value / max) * barSpace);
          const y = index * rowHeight + 6;
          return (
            <g key={bar.label}>
              <text x={labelWidth - 10} y={y + 20} textAnchor="end" fontSize="16" fill="#1b1f24">
                {bar.label}
              </text>
              <rect
                x={labelWidth}
                y={y}
                width={width}
                height={28}
                rx={4}
                fill={index % 2 ? "#00706b" : "#13294b"}
              />
              <text
                x={labelWidth + width + 8}
                y={y + 20}
                fontSize="16"
                fontWeight="700"
                fill="#1b1f24"
              >
                {bar.value.toLocaleString("en-GB")}
                {unit}
              </text>
            </g>
          );
        })}
      </svg>
      {/* Tables ignore the 1px width of .visually-hidden, so the wrapper carries it. */}
      <div className="visually-hidden">
        <table className="definition-table">
          <caption>{title}</caption>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.label}>
                <th scope="row">{bar.label}</th>
                <td>
                  {bar.value.toLocaleString("en-GB")}
                  {unit}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* The caption comes last in the figure, as HTML requires (first or last). */}
      <figcaption>{title}</figcaption>
    </figure>
  );
}
