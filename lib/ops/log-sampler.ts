/**
 * Log lines that a caller can make the server write as fast as it can send requests (a key past its
 * limits, a webhook with a bad secret or signature) are sampled per source: the first `linesPerWindow`
 * lines of a source in each window are written, the rest only counted, and when the window ends one line
 * "<message>: N more suppressed" says how many. So a flood costs a few lines a minute per source, and
 * the operator still sees that it happened and how big it was.
 */
import type { LogLevel } from '../config.ts';
import { log } from './log.ts';

export const SAMPLED_LINES_PER_WINDOW = 5;
const SAMPLING_WINDOW_MS = 60_000;
/** Sources tracked at once; lines of further sources share one window, so memory stays bounded. */
const MAX_SOURCES = 10_000;
/** The shared window of the sources past MAX_SOURCES. */
export const OTHER_SOURCES = '(other sources)';

type Fields = Record<string, unknown>;
type Write = (level: LogLevel, msg: string, fields?: Fields) => void;

interface LogSamplerOptions {
  linesPerWindow?: number;
  windowMs?: number;
  maxSources?: number;
  /** Epoch ms; a test passes its own clock. */
  now?: () => number;
  /** Where lines go; lib/ops/log.ts's log unless a test collects them. */
  write?: Write;
}

interface LogSampler {
  /** Writes the line unless `source` has written its share of the current window; then counts it. */
  log(source: string, level: LogLevel, msg: string, fields?: Fields): void;
  /** Writes the summary of every window that has ended and forgets it (a timer calls this every window). */
  closeEndedWindows(): void;
}

interface Window {
  start: number;
  written: number;
  suppressed: number;
  level: LogLevel;
  msg: string;
}

export function createLogSampler({
  linesPerWindow = SAMPLED_LINES_PER_WINDOW,
  windowMs = SAMPLING_WINDOW_MS,
  maxSources = MAX_SOURCES,
  now = Date.now,
  write = log,
}: LogSamplerOptions = {}): LogSampler {
  const windows = new Map<string, Window>();
  let timer: ReturnType<typeof setInterval> | undefined;

  function close(source: string, window: Window): void {
    windows.delete(source);
    if (window.suppressed === 0) return;
    write(window.level, `${window.msg}: ${window.suppressed} more suppressed`, {
      source,
      suppressed: window.suppressed,
      windowSeconds: windowMs / 1000,
    });
  }

  function closeEndedWindows(): void {
    const at = now();
    for (const [source, window] of windows) if (at - window.start >= windowMs) close(source, window);
    if (windows.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    log(source, level, msg, fields) {
      const at = now();
      const key = windows.has(source) || windows.size < maxSources ? source : OTHER_SOURCES;
      let window = windows.get(key);
      if (window && at - window.start >= windowMs) {
        close(key, window);
        window = undefined;
      }
      if (!window) {
        window = { start: at, written: 0, suppressed: 0, level, msg };
        windows.set(key, window);
        // The summary is due even if the source falls silent, so a timer closes ended windows.
        timer ??= setInterval(closeEndedWindows, windowMs);
        timer.unref();
      }
      if (window.written < linesPerWindow) {
        window.written++;
        write(level, msg, fields);
      } else window.suppressed++;
    },
    closeEndedWindows,
  };
}
