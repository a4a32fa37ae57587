/**
 * Spreadsheet formula injection ("CSV injection", OWASP): a cell that starts with `=`, `+`, `-`,
 * `@`, a tab or a line break can be run as a formula when the file is opened in Excel or
 * LibreOffice. Such a cell gets a leading apostrophe, which spreadsheets show as text and do not
 * run. The full-width forms of the four signs are caught too: some spreadsheets fold them.
 * Quoting (commas, quotes, line breaks inside a cell) is the CSV library's job, not this one's.
 */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

export type CsvValue = string | number | boolean | null | undefined;

/** A cell as text, made safe to open in a spreadsheet. */
export function csvSafeCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** Every cell of a row, made safe. */
export function csvSafeRow(values: readonly CsvValue[]): string[] {
  return values.map(csvSafeCell);
}
