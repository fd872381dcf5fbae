/**
 * `npm start`: the sandbox of the upstream service, with professionals who answer on their own.
 */
import './sandbox.js';
