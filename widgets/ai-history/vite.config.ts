import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'ai-history', root: import.meta.dirname, devPort: 5119 });
