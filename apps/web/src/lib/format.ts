/**
 * Display formats (SET-BILLING-3): en-US money in the record's own currency, dates as "MMM d, yyyy".
 * Each formatter is made on its first use, not when the module loads: making an Intl formatter
 * loads its locale data, about 20 ms of a page's start at 4x CPU for the three below.
 */

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** "$49.00" for (49, 'usd'); the amount may be the API's decimal string. */
export function formatMoney(amount: string | number, currency: string): string {
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    moneyFormats.set(code, format);
  }
  return format.format(typeof amount === 'number' ? amount : Number(amount));
}

let dateFormat: Intl.DateTimeFormat | undefined;

/** "Nov 22, 2026" for an ISO timestamp or a Date, in the reader's time zone. */
export function formatDate(value: string | Date): string {
  dateFormat ??= new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
  return dateFormat.format(typeof value === 'string' ? new Date(value) : value);
}

let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** "Nov 22, 2026, 6:30:12 PM": for logs, where the moment matters. */
export function formatDateTime(value: string | Date): string {
  dateTimeFormat ??= new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
  return dateTimeFormat.format(typeof value === 'string' ? new Date(value) : value);
}

let sizeFormat: Intl.NumberFormat | undefined;
const SIZE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** "512 bytes", "1.5 KB", "12.3 MB": a file's size in units of 1,000 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  sizeFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
  return `${sizeFormat.format(value)} ${SIZE_UNITS[unit]}`;
}
