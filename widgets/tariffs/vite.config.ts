import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'tariffs', root: import.meta.dirname, devPort: 5110 });
