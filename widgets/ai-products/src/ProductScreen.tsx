import { useEffect, useId, useRef, useState, type ReactNode, type SyntheticEvent } from 'react';
import type { Generation, ProductDetail, ProductVariant } from '@app/contracts/generation';
import { ApiError, Alert, Button, EmptyState, LoadError, Skeleton, failureMessage, routeKey, useKitQueryClient, useRouteQuery } from '@app/kit';
import { TooFewTokensView, useTopUp } from '@app/kit/too-few-tokens';
import type { ProductsApi } from './api.ts';
import { ImagePicker, imageProblem, readImage, type PickedImage } from './ImagePicker.tsx';
import { MaskEditor } from './MaskEditor.tsx';
import { hasPaint, maskPng, type Stroke } from './mask.ts';
import { productHref, routedClick } from './routes.ts';
import { RunPanel } from './RunPanel.tsx';
import { IMAGE_LABELS, PROMPT_LABELS, TEXTS, amountLabel, isActive, priceLabel } from './texts.ts';
import { useRun } from './use-run.ts';

export interface ProductLinks {
  plansUrl: string;
  packagesUrl: string;
  historyUrl: string;
  videoHistoryUrl: string;
}

export interface ProductScreenProps {
  id: number;
  /** The variant of the address; a product of another variant moves to its own address. */
  variant: ProductVariant;
  api: ProductsApi;
  links: ProductLinks;
  navigate: (href: string, options?: { replace?: boolean }) => void;
  pollMs?: number;
}

/** A product's screen: loads the product, then its form and its run. */
export function ProductScreen({ id, variant, api, links, navigate, pollMs }: ProductScreenProps) {
  const product = useRouteQuery(api.product, { params: { id } });
  const data = product.data;
  // A link with the wrong variant (or an old one) shows the product under its own address.
  useEffect(() => {
    if (data && data.variant !== variant) navigate(productHref(data), { replace: true });
  }, [data, variant, navigate]);
  const back = (
    <a className="gen-back" href="/ai-products" onClick={routedClick(navigate, '/ai-products')}>
      ← {TEXTS.back}
    </a>
  );
  if (product.isPending) {
    return (
      <div className="gen-screen" aria-busy="true">
        {back}
        <Skeleton lines={6} />
      </div>
    );
  }
  if (product.isError) {
    if (product.error.status === 404) {
      return (
        <div className="gen-screen">
          {back}
          <EmptyState title={TEXTS.notFound}>
            <p>{TEXTS.notFoundHint}</p>
          </EmptyState>
        </div>
      );
    }
    return (
      <div className="gen-screen">
        {back}
        <LoadError message={failureMessage(product.error)} onRetry={() => void product.refetch()} />
      </div>
    );
  }
  return <ProductForm key={product.data.id} product={product.data} api={api} links={links} back={back} pollMs={pollMs} />;
}

/** What a run is started with: kept so «Ещё раз» sends the same again. */
interface RunInput {
  param: string;
  prompt: string;
  fields: Record<string, string>;
  image: File | null;
  mask: Blob | null;
}

type Errors = Record<string, string>;

/** Brings an element into view (smoothly; not in browsers without scrolling, like the tests' DOM). */
/** «Изменить запрос»: the form in view and the cursor at the end of its first text (the prompt, or a template's first field). */
function editPrompt(form: HTMLElement | null): void {
  scrollToView(form);
  const text = form?.querySelector<HTMLTextAreaElement | HTMLInputElement>('textarea, input[type="text"]');
  if (!text) return;
  text.focus({ preventScroll: true });
  text.setSelectionRange(text.value.length, text.value.length);
}

function scrollToView(el: Partial<Pick<HTMLElement, 'scrollIntoView'>> | null): void {
  el?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
}

const firstErrors = (fields: Record<string, string[]>): Errors => Object.fromEntries(Object.entries(fields).flatMap(([k, v]) => (v[0] ? [[k, v[0]]] : [])));

interface ProductFormProps {
  product: ProductDetail;
  api: ProductsApi;
  links: ProductLinks;
  back: ReactNode;
  pollMs?: number | undefined;
}

function ProductForm({ product, api, links, back, pollMs }: ProductFormProps) {
  const client = useKitQueryClient();
  const user = useRouteQuery(api.user, undefined, { refetchOnWindowFocus: true });
  const [param, setParam] = useState(product.params[0]?.value ?? '');
  const [prompt, setPrompt] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [image, setImage] = useState<PickedImage | null>(null);
  const [strokes, setStrokes] = useState<Stroke[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [starting, setStarting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const lastInput = useRef<RunInput | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const formId = useId();
  const inputs = product.inputs;
  const chosen = product.params.find((p) => p.value === param) ?? product.params[0];
  const price = chosen?.price ?? product.price;
  const balance = user.data ? (price.wallet === 'media' ? user.data.balances.media : user.data.balances.words) : null;
  const promptText = PROMPT_LABELS[product.variant] ?? { label: 'Описание', placeholder: '' };
  const isVideo = product.variant === 'video';

  const refreshBalance = () => client.invalidateQueries({ queryKey: routeKey(api.user.route) });
  const { run, setRun } = useRun(api, () => void refreshBalance(), pollMs);

  // The picked image's preview address is freed when it is replaced or the screen closes.
  useEffect(() => () => {
    if (image?.url && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(image.url);
  }, [image]);

  const pick = (file: File) => {
    const problem = imageProblem(file);
    if (problem) {
      setErrors((e) => ({ ...e, image: problem }));
      return;
    }
    readImage(file).then(
      (picked) => {
        setImage(picked);
        setStrokes([]);
        setErrors(({ image: _image, mask: _mask, ...rest }) => rest);
      },
      () => setErrors((e) => ({ ...e, image: TEXTS.imageBroken })),
    );
  };

  const check = (): Errors => {
    const found: Errors = {};
    if (inputs.prompt && !prompt.trim()) found.prompt = TEXTS.promptRequired;
    if (inputs.fields) {
      for (const field of product.fields) {
        if (field.required && !(fields[field.name] ?? '').trim()) found[`fields.${field.name}`] = `Заполните поле «${field.label}»`;
      }
    }
    if (inputs.image === 'required' && !image) found.image = TEXTS.imageRequired;
    if (inputs.mask && image && !hasPaint(strokes)) found.mask = TEXTS.maskRequired;
    return found;
  };

  const start = async (input: RunInput) => {
    setStarting(true);
    setFailure(null);
    try {
      const body = {
        product_id: product.id,
        ...(input.param ? { param: input.param } : {}),
        ...(inputs.prompt ? { prompt: input.prompt } : {}),
        ...(inputs.fields ? { fields: JSON.stringify(input.fields) } : {}),
      };
      const files = { ...(input.image ? { image: input.image } : {}), ...(input.mask ? { mask: input.mask } : {}) };
      const started: Generation = await api.start({ body, files });
      lastInput.current = input;
      setRun(started);
      // The hold came off the balance this screen and the page's other widgets show.
      void refreshBalance();
      scrollToView(resultRef.current);
    } catch (err) {
      const apiError = err instanceof ApiError ? err : new ApiError(0, undefined, failureMessage(err));
      if (apiError.status === 422 && Object.keys(apiError.fields).length) setErrors(firstErrors(apiError.fields));
      else setFailure(apiError);
    } finally {
      setStarting(false);
    }
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length) return;
    const mask = inputs.mask && image ? await maskPng(strokes, image.width, image.height) : null;
    if (inputs.mask && !mask) {
      setErrors({ mask: 'Браузер не смог сохранить маску. Попробуйте другой браузер' });
      return;
    }
    await start({ param, prompt: prompt.trim(), fields, image: image?.file ?? null, mask });
  };

  const cancel = async () => {
    if (!run) return;
    setCancelling(true);
    try {
      setRun(await api.cancel({ params: { id: run.id } }));
      void refreshBalance();
    } catch (err) {
      setFailure(err instanceof ApiError ? err : new ApiError(0, undefined, failureMessage(err)));
    } finally {
      setCancelling(false);
    }
  };

  const tooFew = failure?.status === 402 ? failure : null;
  const topUp = useTopUp(api.check, tooFew !== null);
  const example = product.example_url;
  return (
    <div className="gen-screen">
      {back}
      <header className="gen-screen__head">
        <div>
          <p className="gen-screen__category">{product.category}</p>
          <h1 className="gen-screen__title">{product.name}</h1>
          <p className="gen-screen__lead">{product.description}</p>
        </div>
        <span className="gen-chip" title="Модель">
          {product.model}
          {product.provider === TEXTS.demo && <span className="gen-chip__demo">{TEXTS.demo}</span>}
        </span>
      </header>
      <div className="gen-screen__body">
        <form id={formId} className="gen-form card" noValidate onSubmit={(e) => void submit(e)}>
          {product.variant === 'img_4' && example && (
            <div className="gen-style">
              <img src={example} alt={TEXTS.style} />
              <div>
                <p className="gen-style__label">{TEXTS.style}</p>
                <p className="gen-style__hint">Ваше фото будет перерисовано в этом стиле.</p>
              </div>
            </div>
          )}
          {inputs.image !== 'none' && (
            <ImagePicker
              label={IMAGE_LABELS[product.variant] ?? 'Изображение'}
              required={inputs.image === 'required'}
              image={image}
              error={errors.image ?? null}
              hidePreview={inputs.mask}
              onPick={pick}
              onRemove={() => {
                setImage(null);
                setStrokes([]);
              }}
            />
          )}
          {inputs.mask && image && (
            <MaskEditor
              image={image}
              strokes={strokes}
              error={errors.mask ?? null}
              onChange={(next) => {
                setStrokes(next);
                if (hasPaint(next)) setErrors(({ mask: _mask, ...rest }) => rest);
              }}
            />
          )}
          {inputs.mask && errors.mask && (
            <p className="field__errors" role="alert">
              {errors.mask}
            </p>
          )}
          {inputs.fields &&
            product.fields.map((field) => (
              <TemplateField key={field.name} field={field} value={fields[field.name] ?? ''} error={errors[`fields.${field.name}`] ?? null} onChange={(value) => setFields((f) => ({ ...f, [field.name]: value }))} />
            ))}
          {inputs.prompt && (
            <TextArea label={promptText.label} placeholder={promptText.placeholder} value={prompt} maxLength={2000} error={errors.prompt ?? null} onChange={setPrompt} required />
          )}
          {product.params.length > 1 && (
            <div className="field">
              <label className="field__label" htmlFor={`${formId}-param`}>
                {TEXTS.param}
              </label>
              <select id={`${formId}-param`} className="field__input" value={param} onChange={(e) => setParam(e.target.value)}>
                {product.params.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label} — {priceLabel(p.price)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {errors.param && <p className="field__errors">{errors.param}</p>}
          {errors.product_id && <Alert>{errors.product_id}</Alert>}
          {errors.fields && <Alert>{errors.fields}</Alert>}
          <div className="gen-price" aria-live="polite">
            <div>
              <span className="gen-price__label">{TEXTS.price}</span>
              <strong className="gen-price__amount">{priceLabel(price)}</strong>
            </div>
            {balance !== null && (
              <div className={`gen-price__balance${balance < price.amount && !price.up_to ? ' gen-price__balance--low' : ''}`}>
                <span className="gen-price__label">{TEXTS.balance}</span>
                <span>{amountLabel(price.wallet, balance)}</span>
              </div>
            )}
            {price.up_to && <p className="gen-price__note">{TEXTS.textPriceNote}</p>}
          </div>
          {failure && !tooFew && <Alert>{failure.message}</Alert>}
          <Button type="submit" block busy={starting} disabled={starting || (run !== null && isActive(run))}>
            {starting ? TEXTS.running : `${TEXTS.run} · ${priceLabel(price)}`}
          </Button>
        </form>
        <div className="gen-screen__result" ref={resultRef}>
          {tooFew ? (
            <TooFewTokensView wallet={price.wallet} topUp={topUp} plansUrl={links.plansUrl} packagesUrl={links.packagesUrl} onDismiss={() => setFailure(null)}>
              Запуск стоит {priceLabel(price)}
              {balance !== null && <>, на балансе {amountLabel(price.wallet, balance)}</>}.
            </TooFewTokensView>
          ) : run ? (
            <RunPanel
              run={run}
              cancelling={cancelling}
              onCancel={() => void cancel()}
              onAgain={() => {
                if (lastInput.current) void start(lastInput.current);
              }}
              onEdit={() => editPrompt(document.getElementById(formId))}
              historyUrl={isVideo ? links.videoHistoryUrl : links.historyUrl}
            />
          ) : (
            <div className="gen-placeholder">
              {example && product.variant !== 'img_4' ? (
                <figure className="gen-placeholder__example">
                  <img src={example} alt={TEXTS.example} />
                  <figcaption>{TEXTS.example}</figcaption>
                </figure>
              ) : (
                <div className="gen-placeholder__empty" aria-hidden="true">
                  ✦
                </div>
              )}
              <p>{TEXTS.resultHint}</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function TextArea({ label, placeholder, value, maxLength, error, onChange, required, multiline = true }: { label: string; placeholder: string; value: string; maxLength: number; error: string | null; onChange: (value: string) => void; required: boolean; multiline?: boolean }) {
  const id = useId();
  const props = {
    id,
    className: 'field__input',
    placeholder,
    value,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    'aria-required': required || undefined,
  } as const;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {multiline ? <textarea {...props} rows={4} onChange={(e) => onChange(e.target.value)} /> : <input {...props} type="text" onChange={(e) => onChange(e.target.value)} />}
      <div className="gen-field__foot">
        {error ? (
          <p className="field__errors" id={`${id}-error`}>
            {error}
          </p>
        ) : (
          <span />
        )}
        {value.length > maxLength * 0.8 && (
          <span className="gen-field__count">
            {value.length} / {maxLength}
          </span>
        )}
      </div>
    </div>
  );
}

function TemplateField({ field, value, error, onChange }: { field: ProductDetail['fields'][number]; value: string; error: string | null; onChange: (value: string) => void }) {
  return <TextArea label={field.label} placeholder={field.placeholder} value={value} maxLength={field.max_length} error={error} onChange={onChange} required={field.required} multiline={field.multiline} />;
}
