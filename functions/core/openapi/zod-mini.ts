// The request schemas' zod: zod/mini, whose functions let a Lambda bundle carry only the validators its schemas use,
// with zod's English messages (mini loads no locale itself). Import it as a namespace (`import * as z`): esbuild then
// keeps only the functions used, where a namespace object passed around as a value would keep them all.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
