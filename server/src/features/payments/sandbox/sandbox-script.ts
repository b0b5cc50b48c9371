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
    frame.style.cssText = 'width:100%;max-width:460px;height:640px;max-height:100%;border:0;border-radius:14px;background:#fff;box-shadow:0 20px 60px rgba(0,0,0,.3)';
    backdrop.appendChild(frame);
    document.body.appendChild(backdrop);
    function finish(message) {
      window.removeEventListener('message', onMessage);
      backdrop.remove();
      if (message.status === 'success') {
        if (callbacks.onSuccess) callbacks.onSuccess(options);
        if (callbacks.onComplete) callbacks.onComplete({ success: true, code: 0, message: null, transactionId: message.transaction_id }, options);
      } else {
        var reason = message.status === 'close' ? 'User has cancelled' : (message.reason || 'Платёж не прошёл');
        if (callbacks.onFail) callbacks.onFail(reason, options);
        if (callbacks.onComplete) callbacks.onComplete({ success: false, code: null, message: reason, transactionId: message.transaction_id }, options);
      }
    }
    function onMessage(event) {
      if (event.origin !== window.location.origin || event.source !== frame.contentWindow) return;
      var data = event.data;
      if (!data || data.type !== 'sandbox-cloudpayments') return;
      finish(data);
    }
    window.addEventListener('message', onMessage);
  };
  window.cp = { CloudPayments: CloudPayments };
})();
`;
