// Loaded with `node --import` into the worker process by its test: any import of the HTTP
// framework or the HTTP app ends the process, so the worker provably builds the context alone.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'fastify' || specifier.startsWith('@fastify/') || /\\/app\\.ts$/.test(specifier) || specifier === '@app/host-pages') {
    throw new Error('the worker imported ' + specifier + ' (from ' + context.parentURL + ')');
  }
  return next(specifier, context);
}`));
