import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'ai-products', root: import.meta.dirname, devPort: 5118 });
