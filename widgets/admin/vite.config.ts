import { widgetConfig } from '@app/widget-build';

export default widgetConfig({
  name: 'admin',
  root: import.meta.dirname,
  devPort: 5120,
  // The panel's frame, home and users tabs and what every tab shares; the other tabs are chunks of their own (`Admin.tsx`).
  firstView: /[\\/]widgets[\\/]admin[\\/]src[\\/](?!ai[\\/]|billing[\\/]|activity[\\/]|AuditTab)|loadShare__react/,
});
