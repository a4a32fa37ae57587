import type { ReactNode } from "react";

/**
 * A back-office table: on a narrow screen it scrolls sideways by itself (not the page), and the
 * scrolling region is named and reachable by keyboard (WCAG 2.1.1). `children` are its body rows.
 */
export function AdminTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table className="admin-table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
