import type { Meta, StoryObj } from '@storybook/react-vite';
import { freshQueries, pending } from '@app/kit/stories';
import { fakeProductsApi } from './fake-api.ts';
import { USER } from './fixtures.ts';
import { ProductScreen } from './ProductScreen.tsx';

const noop = () => undefined;
const links = { plansUrl: '/dashboard/user/payment', packagesUrl: '/dashboard/user/payment#packages', historyUrl: '/ai-history', videoHistoryUrl: '/ai-history-video' };

const meta = {
  title: 'Widgets/ai-products/ProductScreen',
  component: ProductScreen,
  decorators: [freshQueries],
  args: { id: 1, variant: 'img', api: fakeProductsApi(), links, navigate: noop },
} satisfies Meta<typeof ProductScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Text to image: a prompt and a size. */
export const Img: Story = {};
/** From the user's example image. */
export const Img2: Story = { args: { id: 2, variant: 'img_2' } };
/** A template: fields instead of a prompt. */
export const Img3Template: Story = { args: { id: 3, variant: 'img_3' } };
/** The product's example as a style for the user's photo. */
export const Img4Style: Story = { args: { id: 4, variant: 'img_4' } };
/** Inpainting: the mask editor appears once an image is picked. */
export const Mask: Story = { args: { id: 5, variant: 'mask' } };
export const Video: Story = { args: { id: 6, variant: 'video' } };
/** A text product: priced «до N слов», charged by use. */
export const Text: Story = { args: { id: 7, variant: 'text_1' } };
export const LowBalance: Story = { args: { api: fakeProductsApi({ user: { ...USER, balances: { words: 0, media: 0.5 } } }) } };
export const Loading: Story = { args: { api: fakeProductsApi({ product: () => pending() }) } };
export const NotFound: Story = { args: { id: 999, variant: 'img' } };
