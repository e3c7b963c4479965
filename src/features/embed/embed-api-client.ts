/**
 * Issue 34 item 4: `/embed-api.js`, the host page's client for the embed API (embed-protocol.ts),
 * served as it is written here: plain ES2017, no dependencies, no build step, well under
 * EMBED_API_CLIENT_MAX_GZIP. It wraps the messages in promises and events:
 *
 *   const deck = PodiumEmbed(document.querySelector("iframe"));
 *   deck.on("stepchange", (state) => …);
 *   await deck.goTo(3); const state = await deck.getState();
 *
 * Only answers from the frame's own window and origin are read; calls wait until the player has
 * said it is ready (or answered the first getState, for a page that listens late).
 */

/** The limit for the client, gzipped. */
export const EMBED_API_CLIENT_MAX_GZIP = 4 * 1024;
export const EMBED_API_CLIENT_PATH = "/embed-api.js";

export const EMBED_API_CLIENT_SOURCE = `/*! Podium embed API client v1: ${EMBED_API_CLIENT_PATH} */
(function () {
  "use strict";
  var VERSION = 1;
  var count = 0;
  function PodiumEmbed(frame) {
    if (!(this instanceof PodiumEmbed)) return new PodiumEmbed(frame);
    if (typeof frame === "string") frame = document.querySelector(frame);
    if (!frame || !frame.contentWindow) throw new TypeError("PodiumEmbed needs an iframe element");
    var self = this;
    var origin = new URL(frame.src, location.href).origin;
    var pending = {};
    var listeners = {};
    var isReady = false;
    var markReady;
    self.frame = frame;
    self.ready = new Promise(function (resolve) {
      markReady = function (state) {
        if (!isReady) {
          isReady = true;
          resolve(state);
        }
      };
    });
    function send(method, extra) {
      var id = "pe" + ++count;
      var message = { podium: VERSION, method: method, id: id };
      if (extra) for (var key in extra) message[key] = extra[key];
      return new Promise(function (resolve, reject) {
        pending[id] = { resolve: resolve, reject: reject };
        frame.contentWindow.postMessage(message, origin);
      });
    }
    function call(method, extra) {
      return self.ready.then(function () {
        return send(method, extra);
      });
    }
    window.addEventListener("message", function (event) {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      var data = event.data;
      if (!data || typeof data !== "object" || data.podium !== VERSION) return;
      if (typeof data.event === "string") {
        var state = { step: data.step, total: data.total, playing: data.playing, ended: data.ended };
        if (data.event === "ready") markReady(state);
        (listeners[data.event] || []).slice().forEach(function (listener) {
          listener(state);
        });
        return;
      }
      var waiting = pending[data.id];
      if (!waiting) return;
      delete pending[data.id];
      if ("error" in data) waiting.reject(new Error(String(data.error)));
      else waiting.resolve(data.result);
    });
    // A page that listens after the player said it was ready: the first answer counts as ready.
    // Not while the frame still holds its first blank page (the browser would warn of the origin).
    function ping() {
      var there;
      try {
        there = frame.contentWindow.location.origin === origin;
      } catch (error) {
        there = true;
      }
      if (!isReady && there) send("getState").then(markReady);
    }
    frame.addEventListener("load", ping);
    ping();
    self.next = function () {
      return call("next");
    };
    self.prev = function () {
      return call("prev");
    };
    self.goTo = function (step) {
      return call("goTo", { step: step });
    };
    self.getState = function () {
      return call("getState");
    };
    self.getSteps = function () {
      return call("getSteps");
    };
    self.on = function (name, listener) {
      (listeners[name] = listeners[name] || []).push(listener);
      return self;
    };
    self.off = function (name, listener) {
      listeners[name] = (listeners[name] || []).filter(function (known) {
        return known !== listener;
      });
      return self;
    };
  }
  window.PodiumEmbed = PodiumEmbed;
})();
`;
