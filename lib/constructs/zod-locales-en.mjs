// Stands in for zod's locales index inside Lambda bundles: English only (the default zod sets itself), not 40 tables.
export { default as en } from 'zod/v4/locales/en.js';
