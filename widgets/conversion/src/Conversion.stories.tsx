import type { Meta, StoryObj } from '@storybook/react-vite';
import { Conversion } from './Conversion.tsx';
import { billingEndpoints } from '@app/contracts/browser';
import { routeCall } from '@app/kit';
import type { ConversionApi } from './api.ts';

const fakeApi: ConversionApi = { record: routeCall(billingEndpoints.conversion, () => Promise.resolve({ recorded: true })) };

const meta = {
  title: 'Widgets/conversion',
  component: Conversion,
  args: { payments: 0, api: fakeApi },
  decorators: [
    (Story) => (
      <div>
        <p className="story-note">Заглушка конверсии ничего не показывает: при payments=1 она один раз вызывает GET /api/new/target_2.</p>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Conversion>;
export default meta;
type Story = StoryObj<typeof meta>;

export const WithoutPayment: Story = {};
export const AfterPayment: Story = { args: { payments: 1 } };
