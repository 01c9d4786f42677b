// pivot serve's HTTP and WebSocket server (live_server.hpp), on Boost.Beast: one io_context
// on one thread runs the connections, the step timer and the signal handler.
#include "live/live_server.hpp"

#include <fmt/core.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <csignal>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "live/live_hub.hpp"
#include "live/live_page.hpp"
#include "live/live_session.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot::cli {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

class Server;

/// one WebSocket viewer: a read loop, and a queue of messages written one at a time
class Viewer : public std::enable_shared_from_this<Viewer> {
 public:
  Viewer(tcp::socket socket, Server& server, int id)
      : ws_(std::move(socket)), server_(&server), id_(id) {}

  void start(http::request<http::string_body> request);
  /// queues a message; frames are dropped while the viewer is more than a few behind, and a
  /// viewer with more than kMaxQueuedBytes or kMaxQueued messages waiting (one that does not
  /// read) is disconnected
  void send(std::shared_ptr<const std::string> text, bool frame);
  void close();
  [[nodiscard]] int id() const { return id_; }

 private:
  void read();
  void write();
  void do_close();
  void drop(std::string_view why);

  websocket::stream<beast::tcp_stream> ws_;
  Server* server_;
  int id_;
  beast::flat_buffer buffer_;
  std::deque<std::pair<std::shared_ptr<const std::string>, bool>> queue_;
  std::size_t queued_bytes_ = 0;
  bool open_ = false, closing_ = false, dropped_ = false;
};

/// one HTTP connection: serves the page, or hands an upgrade to /ws to a Viewer
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket socket, Server& server)
      : stream_(std::move(socket)), server_(&server) {}
  void read();

 private:
  void answer();
  beast::tcp_stream stream_;
  Server* server_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
};

class Server {
 public:
  Server(const Scene& scene, const ServeOptions& options)
      : options_(options),
        session_(scene, options.record),
        hub_(session_, {.max_message = options.max_message},
             [this](int viewer, const std::shared_ptr<const std::string>& text, bool frame) {
               if (const auto it = viewers_.find(viewer); it != viewers_.end())
                 it->second->send(text, frame);
             }),
        acceptor_(ioc_),
        timer_(ioc_),
        signals_(ioc_, SIGINT, SIGTERM),
        page_(live_page(scene.name)),
        scene_name_(scene.name) {}

  int run() {
    beast::error_code ec;
    const auto address = net::ip::make_address(options_.host, ec);
    if (ec)
      throw Error(fmt::format("--host {}: not an IP address ({})", options_.host, ec.message()));
    const tcp::endpoint endpoint(address, options_.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot listen on {}:{}: {}", options_.host, options_.port, ec.message()));
    const auto port = acceptor_.local_endpoint().port();
    const std::string host = address.is_v6() ? fmt::format("[{}]", options_.host) : options_.host;
    fmt::print("pivot serve: http://{}:{}/ scene {}; Ctrl-C to stop\n", host, port, scene_name_);
    std::fflush(stdout);
    if (!address.is_loopback())
      fmt::print(stderr,
                 "pivot serve: warning: listening on {}, not only on this machine: the server has "
                 "no authentication, and anyone who can reach {}:{} can watch and drive the run "
                 "(docs/cli.md \"pivot serve\")\n",
                 options_.host, host, port);
    accept();
    signals_.async_wait([this](beast::error_code, int) { stop(); });
    last_ = Clock::now();
    tick();
    // a handler that throws (it should not) is logged and the server goes on: the run is
    // never stopped by one viewer's message
    for (;;) {
      try {
        ioc_.run();
        break;
      } catch (const std::exception& e) {
        fmt::print(stderr, "pivot serve: internal error (the server goes on): {}\n", e.what());
      }
    }
    for (const std::string& line : session_.finish()) fmt::print("pivot serve: {}\n", line);
    fmt::print("pivot serve: stopped at step {}, final hash {}\n", session_.world().step_count(),
               hash_to_hex(session_.hash()));
    return 0;
  }

  [[nodiscard]] const ServeOptions& options() const { return options_; }
  [[nodiscard]] const std::string& page() const { return page_; }

  void joined(const std::shared_ptr<Viewer>& v) {
    viewers_[v->id()] = v;
    hub_.joined(v->id());
  }

  /// the viewer's read loop ended (closed, failed, dropped): it is gone for good
  void left(const Viewer& v) {
    if (viewers_.erase(v.id()) == 0) return;
    hub_.left(v.id());
  }

  void message(const Viewer& v, std::string_view text) {
    hub_.message(v.id(), text, std::chrono::duration<double>(Clock::now() - start_).count());
  }

  void log(int viewer, std::string_view what) {
    fmt::print(stderr, "pivot serve: viewer {}: {}\n", viewer, what);
  }

  int next_id() { return ++last_id_; }
  net::io_context& ioc() { return ioc_; }

 private:
  void accept() {
    acceptor_.async_accept(ioc_, [this](beast::error_code ec, tcp::socket s) {
      if (ec) return;  // the acceptor was closed
      std::make_shared<HttpConnection>(std::move(s), *this)->read();
      accept();
    });
  }

  void tick() {
    const auto period = std::chrono::duration<double>(1.0 / options_.display_hz);
    const auto now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    // (never throws: a failed step is reported in the frames, and the timer is re-armed
    // whatever happened)
    hub_.tick(wall, 0.8 * period.count());
    timer_.expires_after(std::chrono::duration_cast<Clock::duration>(period));
    timer_.async_wait([this](beast::error_code ec) {
      if (!ec && !stopping_) tick();
    });
  }

  void stop() {
    if (stopping_) return;
    stopping_ = true;
    fmt::print(stderr, "pivot serve: stopping\n");
    beast::error_code ec;
    acceptor_.close(ec);
    timer_.cancel();
    for (const auto& [id, v] : std::map(viewers_)) v->close();
    // the close handshakes get a moment, then the loop ends whatever is left
    timer_.expires_after(std::chrono::milliseconds(300));
    timer_.async_wait([this](beast::error_code) { ioc_.stop(); });
  }

  ServeOptions options_;
  LiveSession session_;
  LiveHub hub_;
  net::io_context ioc_{1};
  tcp::acceptor acceptor_;
  net::steady_timer timer_;
  net::signal_set signals_;
  std::string page_, scene_name_;
  std::map<int, std::shared_ptr<Viewer>> viewers_;
  int last_id_ = 0;
  Clock::time_point last_, start_ = Clock::now();
  bool stopping_ = false;
};

void HttpConnection::read() {
  request_ = {};
  stream_.expires_after(std::chrono::seconds(30));
  http::async_read(stream_, buffer_, request_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) {
                     if (ec) return;  // closed, timed out or malformed: the connection ends
                     self->answer();
                   });
}

void HttpConnection::answer() {
  if (websocket::is_upgrade(request_)) {
    if (request_.target() != "/ws") {
      beast::error_code ec;
      stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
      return;
    }
    stream_.expires_never();
    auto viewer = std::make_shared<Viewer>(stream_.release_socket(), *server_, server_->next_id());
    viewer->start(std::move(request_));
    return;
  }
  auto response = std::make_shared<http::response<http::string_body>>();
  response->version(request_.version());
  response->keep_alive(request_.keep_alive());
  response->set(http::field::server, "pivot serve");
  const bool page = request_.target() == "/" || request_.target() == "/index.html";
  if (request_.method() != http::verb::get && request_.method() != http::verb::head) {
    response->result(http::status::method_not_allowed);
    response->set(http::field::content_type, "text/plain");
    response->body() = "only GET and HEAD\n";
  } else if (request_.target() == "/favicon.ico") {
    response->result(http::status::no_content);  // none: browsers ask for it
  } else if (!page) {
    response->result(http::status::not_found);
    response->set(http::field::content_type, "text/plain");
    response->body() = "not found: the viewer is at /, the WebSocket at /ws\n";
  } else {
    response->result(http::status::ok);
    response->set(http::field::content_type, "text/html; charset=utf-8");
    response->set(http::field::cache_control, "no-store");
    if (request_.method() == http::verb::get) response->body() = server_->page();
  }
  response->prepare_payload();
  if (request_.method() == http::verb::head) response->body().clear();
  http::async_write(stream_, *response,
                    [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
                      if (ec) return;
                      if (!response->keep_alive()) {
                        beast::error_code ignored;
                        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                        return;
                      }
                      self->read();
                    });
}

void Viewer::start(http::request<http::string_body> request) {
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.read_message_max(kMaxFrameBytes);
  ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
    if (ec) return;
    self->open_ = true;
    self->server_->joined(self);
    self->read();
  });
}

void Viewer::read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    if (ec) {
      if (ec == websocket::error::message_too_big)
        self->server_->log(self->id_,
                           fmt::format("frame over {} bytes: closed (1009)", kMaxFrameBytes));
      if (self->open_) {
        self->open_ = false;
        self->server_->left(*self);
      }
      return;
    }
    const std::string text = beast::buffers_to_string(self->buffer_.data());
    self->buffer_.consume(self->buffer_.size());
    self->server_->message(*self, text);  // (never throws)
    if (self->dropped_) {
      // it did not read its messages: gone now, not when its connection times out
      self->open_ = false;
      self->server_->left(*self);
      return;
    }
    self->read();
  });
}

void Viewer::send(std::shared_ptr<const std::string> text, bool frame) {
  if (!open_ || closing_ || dropped_) return;
  if (frame) {
    std::size_t frames = 0;
    for (const auto& q : queue_) frames += q.second ? 1 : 0;
    if (frames >= kMaxQueuedFrames) return;  // a slow viewer skips frames, never the others'
  }
  if (!queue_.empty() &&
      (queue_.size() >= kMaxQueued || queued_bytes_ + text->size() > kMaxQueuedBytes))
    return drop(
        fmt::format("not reading ({} messages, {} bytes waiting)", queue_.size(), queued_bytes_));
  queued_bytes_ += text->size();
  queue_.emplace_back(std::move(text), frame);
  if (queue_.size() == 1) write();
}

void Viewer::drop(std::string_view why) {
  // the messages waiting are freed (the one being written stays with its write, which the
  // socket's closing ends), and the read loop ends with an error: the viewer leaves then
  server_->log(id_, fmt::format("{}: disconnected", why));
  dropped_ = true;
  if (queue_.size() > 1) queue_.erase(queue_.begin() + 1, queue_.end());
  beast::error_code ec;
  beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
  beast::get_lowest_layer(ws_).socket().close(ec);
}

void Viewer::write() {
  ws_.text(true);
  ws_.async_write(net::buffer(*queue_.front().first),
                  [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    if (ec) {
                      self->queue_.clear();
                      self->queued_bytes_ = 0;
                      return;  // the read loop sees the connection end
                    }
                    if (self->dropped_) {
                      self->queue_.clear();
                      return;
                    }
                    self->queued_bytes_ -= self->queue_.front().first->size();
                    self->queue_.pop_front();
                    if (self->closing_) {
                      self->queue_.clear();
                      self->do_close();
                    } else if (!self->queue_.empty()) {
                      self->write();
                    }
                  });
}

void Viewer::close() {
  if (!open_ || closing_) return;
  closing_ = true;
  if (queue_.empty()) do_close();  // else after the write in flight
}

void Viewer::do_close() {
  ws_.async_close(websocket::close_code::going_away,
                  [self = shared_from_this()](beast::error_code) {});
}

}  // namespace

int serve(const Scene& scene, const ServeOptions& options) {
  Server server(scene, options);
  return server.run();
}

}  // namespace pivot::cli
