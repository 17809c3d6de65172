// stored.mjs -- one JSON object per key in localStorage, read and written
// without ever throwing: storage may be full, off, or hold something else,
// and the page must work without it.
export {};

/**
 * The object stored under key, or {}.
 * @param {string} key
 * @returns {Record<string, any>}
 */
export function readStored(key) {
    try {
        const v = JSON.parse(localStorage.getItem(key) ?? "{}");
        return v && typeof v === "object" ? v : {};
    } catch {
        return {};
    }
}

/**
 * Stores value under key; false when storage refused it.
 * @param {string} key
 * @param {Record<string, any>} value
 */
export function writeStored(key, value) {
    try {
        localStorage.setItem(key, JSON.stringify(value));
        return true;
    } catch {
        return false;
    }
}
