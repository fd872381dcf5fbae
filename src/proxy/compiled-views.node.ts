/**
 * On Node the proxy's projections run compiled by zod (views.ts says why). Imported by the Node
 * entries for what it does, not for anything it exports.
 */
import { compile } from 'zod/v4/core';
import { compileViewsWith } from './views.js';

compileViewsWith(compile);
