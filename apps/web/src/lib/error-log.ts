/** Most entries the in-memory error log keeps (WEB-ERR-4); the oldest go first. */
export const ERROR_LOG_LIMIT = 1000;

export interface ErrorLogEntry {
  at: Date;
  message: string;
  status?: number;
  url?: string;
}

export interface ErrorLog {
  add(entry: Omit<ErrorLogEntry, 'at'>): void;
  entries(): readonly ErrorLogEntry[];
  clear(): void;
}

export function createErrorLog(limit = ERROR_LOG_LIMIT, now: () => Date = () => new Date()): ErrorLog {
  let log: ErrorLogEntry[] = [];
  return {
    add(entry) {
      log.push({ ...entry, at: now() });
      if (log.length > limit) log = log.slice(log.length - limit);
    },
    entries: () => log,
    clear() {
      log = [];
    },
  };
}

/** The app's one error log. */
export const errorLog = createErrorLog();
