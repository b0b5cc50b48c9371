/**
 * `/sandbox/cloudpayments.js`: stands in for CloudPayments' widget script. It offers the same
 * `new cp.CloudPayments().pay('charge', options, {onSuccess, onFail, onComplete})` call and
 * opens the sandbox checkout page in a frame over the page.
 */
export const SANDBOX_WIDGET_SCRIPT = `(function () {
  'use strict';
  function CloudPayments(settings) { this.settings = settings || {}; }
  CloudPayments.prototype.pay = function (method, options, callbacks) {
    callbacks = callbacks || {};
    var backdrop = document.createElement('div');
    backdrop.setAttribute('data-sandbox-checkout', '');
    backdrop.style.cssText = 'position:fixed;inset:0;z-index:2147483000;background:rgba(20,24,40,.55);display:flex;align-items:center;justify-content:center;padding:16px';
    var frame = document.createElement('iframe');
    frame.title = 'Тестовая оплата';
    frame.src = '/sandbox/checkout?payment_id=' + encodeURIComponent(String(options.invoiceId));
    frame.style.cssText = 'width:100%;max-width:460px;height:880px;max-height:100%;border:0;border-radius:14px;background:#fff;box-shadow:0 20px 60px rgba(0,0,0,.3)';
    backdrop.appendChild(frame);
    document.body.appendChild(backdrop);
    // As CloudPayments' widget: a declined card stays in the form (another card can be tried);
    // onFail comes when the form is closed after a failure, onSuccess as soon as one succeeds.
    var lastFailure = null;
    function close() {
      window.removeEventListener('message', onMessage);
      backdrop.remove();
    }
    function onMessage(event) {
      if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
      var data = event.data;
      if (!data || data.type !== 'sandbox-cloudpayments') return;
      if (data.status === 'fail') {
        lastFailure = data;
        return;
      }
      close();
      if (data.status === 'success') {
        if (callbacks.onSuccess) callbacks.onSuccess(options);
        if (callbacks.onComplete) callbacks.onComplete({ success: true, code: 0, message: null, transactionId: data.transaction_id }, options);
        return;
      }
      var reason = lastFailure ? (lastFailure.reason || 'Платёж не прошёл') : 'User has cancelled';
      if (callbacks.onFail) callbacks.onFail(reason, options);
      if (callbacks.onComplete) callbacks.onComplete({ success: false, code: null, message: reason, transactionId: lastFailure ? lastFailure.transaction_id : null }, options);
    }
    window.addEventListener('message', onMessage);
  };
  window.cp = { CloudPayments: CloudPayments };
})();
`;
