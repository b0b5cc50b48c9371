export { closeOpenMarkdown } from '@app/kit/close-open-markdown';
