import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'second-factor', root: import.meta.dirname, devPort: 5132 });
