/* A thread that writes frames to sockets without the GIL (app/realtime/connection.py
 * NativeFrameWriter; built by scripts/build_native.py, optional).
 *
 * The Python frame writer (connection.py FrameWriter) moved the sockets' system calls
 * off the event loop, but its thread takes the GIL for every frame: at 400 games those
 * hand-offs cost the loop more than the writes they saved (docs/performance.md,
 * "Session 11").  This thread never takes it.  The loop hands it (fd, bytes, token)
 * with put(); the thread sends each frame with one non-blocking send(), in the order
 * given.  A frame sent whole costs the loop nothing more: its references are dropped
 * at a later put() or drain() (with the GIL).  A short write (the socket's buffer is
 * full) files the frame with the rest it could not write, and every later frame of
 * that descriptor comes back whole, unsent, until the loop wrote them all: an eventfd
 * wakes the loop, whose drain() returns them (token, rest) in order, for its transport
 * to write, each then reported with settled(fd).  pending(fd) counts the frames of a
 * descriptor put and not yet sent whole nor settled: while it is not 0, later frames
 * of the socket must come here too (order), and its descriptor must stay open.
 * Python objects are only touched with the GIL held (put, drain, close): the thread
 * reads the bytes' buffer, which the reference put() took keeps alive.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOURCE_SHA
#define SOURCE_SHA ""
#endif

typedef struct item {
    struct item *next;
    int fd;
    const char *buf;
    Py_ssize_t len;
    Py_ssize_t sent;
    PyObject *data;     /* the bytes (a reference) */
    PyObject *token;    /* the caller's object (a reference) */
} item;

typedef struct {
    PyObject_HEAD
    pthread_mutex_t mu;
    pthread_cond_t cv;
    item *in_head, *in_tail;    /* to write */
    item *out_head, *out_tail;  /* short (a rest) or not sent: for drain() */
    item *done;                 /* sent whole: references to drop (with the GIL) */
    unsigned char *spilled;     /* per descriptor: a short write, later frames go back */
    int *pending;               /* per descriptor: put, not yet sent whole nor drained */
    int nfds;
    int efd;
    int stop;
    int running;
    pthread_t thread;
} Writer;

static void write_one(Writer *w, item *it) {
    Py_ssize_t n;
    if (__atomic_load_n(&w->spilled[it->fd], __ATOMIC_ACQUIRE)) {
        n = 0;
    } else {
        ssize_t r;
        do {
            r = send(it->fd, it->buf, (size_t)it->len, MSG_DONTWAIT | MSG_NOSIGNAL);
        } while (r < 0 && errno == EINTR);
        if (r >= 0)
            n = (Py_ssize_t)r;
        else if (errno == EAGAIN || errno == EWOULDBLOCK)
            n = 0;
        else
            n = it->len;        /* gone: the loop sees the disconnect itself */
    }
    if (n < it->len)
        __atomic_store_n(&w->spilled[it->fd], 1, __ATOMIC_RELEASE);
    it->sent = n;
}

static void *run(void *arg) {
    Writer *w = (Writer *)arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->in_head == NULL && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->in_head == NULL)
            break;                              /* stopped, nothing left */
        item *batch = w->in_head;
        w->in_head = w->in_tail = NULL;
        pthread_mutex_unlock(&w->mu);
        item *done = NULL, *back = NULL, *back_tail = NULL;
        while (batch != NULL) {
            item *it = batch;
            batch = it->next;
            it->next = NULL;
            write_one(w, it);
            if (it->sent == it->len) {
                __atomic_sub_fetch(&w->pending[it->fd], 1, __ATOMIC_ACQ_REL);
                it->next = done;
                done = it;
            } else {
                if (back_tail != NULL)
                    back_tail->next = it;
                else
                    back = it;
                back_tail = it;
            }
        }
        pthread_mutex_lock(&w->mu);
        while (done != NULL) {
            item *it = done;
            done = it->next;
            it->next = w->done;
            __atomic_store_n(&w->done, it, __ATOMIC_RELAXED);  /* put() peeks unlocked */
        }
        if (back != NULL) {
            int wake = w->out_head == NULL;     /* else the loop has a wake-up coming */
            if (w->out_tail != NULL)
                w->out_tail->next = back;
            else
                w->out_head = back;
            w->out_tail = back_tail;
            if (wake) {
                uint64_t one = 1;
                ssize_t r = write(w->efd, &one, sizeof one);
                (void)r;
            }
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

static void free_items(item *it) {
    while (it != NULL) {
        item *next = it->next;
        Py_DECREF(it->data);
        Py_DECREF(it->token);
        PyMem_RawFree(it);
        it = next;
    }
}

static void free_done(Writer *w) {
    /* (GIL) drop the references of the frames sent whole */
    pthread_mutex_lock(&w->mu);
    item *it = w->done;
    w->done = NULL;
    pthread_mutex_unlock(&w->mu);
    free_items(it);
}

static int stop_thread(Writer *w) {
    if (!w->running)
        return 0;
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    Py_BEGIN_ALLOW_THREADS
    pthread_join(w->thread, NULL);
    Py_END_ALLOW_THREADS
    w->running = 0;
    return 1;
}

static PyObject *Writer_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *names[] = {"max_fds", NULL};
    int nfds = 65536;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|i", names, &nfds))
        return NULL;
    if (nfds < 1 || nfds > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "max_fds out of range");
        return NULL;
    }
    Writer *w = (Writer *)type->tp_alloc(type, 0);
    if (w == NULL)
        return NULL;
    w->efd = -1;
    w->spilled = PyMem_RawCalloc((size_t)nfds, 1);
    w->pending = PyMem_RawCalloc((size_t)nfds, sizeof(int));
    if (w->spilled == NULL || w->pending == NULL) {
        Py_DECREF(w);
        return PyErr_NoMemory();
    }
    w->nfds = nfds;
    w->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (w->efd < 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        Py_DECREF(w);
        return NULL;
    }
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, run, w) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "cannot start the send thread");
        Py_DECREF(w);
        return NULL;
    }
    w->running = 1;
    return (PyObject *)w;
}

static void Writer_dealloc(Writer *w) {
    stop_thread(w);
    free_items(w->in_head);
    free_items(w->out_head);
    free_items(w->done);
    w->in_head = w->out_head = w->done = NULL;
    if (w->efd >= 0)
        close(w->efd);
    PyMem_RawFree(w->spilled);
    PyMem_RawFree(w->pending);
    Py_TYPE(w)->tp_free((PyObject *)w);
}

static int fd_arg(Writer *w, PyObject *arg, long *fd) {
    /* a descriptor of the table, or -1 with ValueError (or the conversion's error) */
    *fd = PyLong_AsLong(arg);
    if (*fd == -1 && PyErr_Occurred())
        return -1;
    if (*fd < 0 || *fd >= w->nfds) {
        PyErr_SetString(PyExc_ValueError, "descriptor out of range");
        return -1;
    }
    return 0;
}

static PyObject *Writer_put(Writer *w, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "put(fd, data, token[, wake])");
        return NULL;
    }
    int wake = 1;
    if (nargs == 4 && (wake = PyObject_IsTrue(args[3])) < 0)
        return NULL;
    long fd;
    if (fd_arg(w, args[0], &fd) < 0)
        return NULL;
    if (!PyBytes_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "data must be bytes");
        return NULL;
    }
    if (!w->running) {
        PyErr_SetString(PyExc_RuntimeError, "the send thread is closed");
        return NULL;
    }
    if (__atomic_load_n(&w->done, __ATOMIC_RELAXED) != NULL)    /* a hint: free_done locks */
        free_done(w);
    item *it = PyMem_RawMalloc(sizeof *it);
    if (it == NULL)
        return PyErr_NoMemory();
    it->next = NULL;
    it->fd = (int)fd;
    it->buf = PyBytes_AS_STRING(args[1]);
    it->len = PyBytes_GET_SIZE(args[1]);
    it->sent = 0;
    Py_INCREF(args[1]);
    Py_INCREF(args[2]);
    it->data = args[1];
    it->token = args[2];
    __atomic_add_fetch(&w->pending[fd], 1, __ATOMIC_ACQ_REL);
    pthread_mutex_lock(&w->mu);
    if (w->in_tail != NULL)
        w->in_tail->next = it;
    else
        w->in_head = it;
    w->in_tail = it;
    if (wake)
        pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    Py_RETURN_NONE;
}

static PyObject *Writer_kick(Writer *w, PyObject *unused) {
    /* after puts without wake: the thread takes them all at once (one wake-up) */
    pthread_mutex_lock(&w->mu);
    if (w->in_head != NULL)
        pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    Py_RETURN_NONE;
}

static PyObject *Writer_drain(Writer *w, PyObject *unused) {
    uint64_t count;
    ssize_t r = read(w->efd, &count, sizeof count);     /* reset the wake-up first */
    (void)r;
    free_done(w);
    pthread_mutex_lock(&w->mu);
    item *it = w->out_head;
    w->out_head = w->out_tail = NULL;
    pthread_mutex_unlock(&w->mu);
    PyObject *out = PyList_New(0);
    while (it != NULL) {
        item *next = it->next;
        if (out != NULL) {
            PyObject *rest = it->sent < it->len
                ? PyBytes_FromStringAndSize(it->buf + it->sent, it->len - it->sent)
                : Py_NewRef(Py_None);
            PyObject *pair = rest == NULL ? NULL : PyTuple_Pack(2, it->token, rest);
            Py_XDECREF(rest);
            if (pair == NULL || PyList_Append(out, pair) < 0)
                Py_CLEAR(out);
            Py_XDECREF(pair);
        }
        it->next = NULL;
        free_items(it);
        it = next;
    }
    return out;
}

static PyObject *Writer_settled(Writer *w, PyObject *arg) {
    /* the rest of one drained frame of fd is written (on the loop's transport): once
     * the thread holds nothing of fd, its frames are sent again */
    long fd;
    if (fd_arg(w, arg, &fd) < 0)
        return NULL;
    if (__atomic_load_n(&w->pending[fd], __ATOMIC_ACQUIRE) <= 0) {
        PyErr_SetString(PyExc_ValueError, "nothing pending on this descriptor");
        return NULL;
    }
    if (__atomic_sub_fetch(&w->pending[fd], 1, __ATOMIC_ACQ_REL) == 0)
        __atomic_store_n(&w->spilled[fd], 0, __ATOMIC_RELEASE);
    Py_RETURN_NONE;
}

static PyObject *Writer_unspill(Writer *w, PyObject *arg) {
    long fd;
    if (fd_arg(w, arg, &fd) < 0)
        return NULL;
    __atomic_store_n(&w->spilled[fd], 0, __ATOMIC_RELEASE);
    Py_RETURN_NONE;
}

static PyObject *Writer_pending(Writer *w, PyObject *arg) {
    long fd;
    if (fd_arg(w, arg, &fd) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError))
            return NULL;
        PyErr_Clear();          /* not in the table: nothing of it here */
        return PyLong_FromLong(0);
    }
    return PyLong_FromLong(__atomic_load_n(&w->pending[fd], __ATOMIC_ACQUIRE));
}

static PyObject *Writer_fileno(Writer *w, PyObject *unused) {
    return PyLong_FromLong(w->efd);
}

static PyObject *Writer_close(Writer *w, PyObject *unused) {
    stop_thread(w);             /* what was put is written first */
    Py_RETURN_NONE;
}

static PyObject *Writer_max_fds(Writer *w, void *closure) {
    return PyLong_FromLong(w->nfds);
}

static PyMethodDef Writer_methods[] = {
    {"put", (PyCFunction)(void (*)(void))Writer_put, METH_FASTCALL,
     "put(fd, data, token[, wake]): send data on fd after what was put before; "
     "wake=False: not before kick()."},
    {"kick", (PyCFunction)Writer_kick, METH_NOARGS,
     "kick(): wake the thread for what was put without wake."},
    {"drain", (PyCFunction)Writer_drain, METH_NOARGS,
     "drain() -> [(token, rest)] of the frames written short or not at all, in order."},
    {"pending", (PyCFunction)Writer_pending, METH_O,
     "pending(fd) -> frames of fd put and not yet sent whole nor drained."},
    {"settled", (PyCFunction)Writer_settled, METH_O,
     "settled(fd): the rest of a drained frame of fd is written."},
    {"unspill", (PyCFunction)Writer_unspill, METH_O,
     "unspill(fd): fd's frames are sent again (nothing of it is in the thread's hands)."},
    {"fileno", (PyCFunction)Writer_fileno, METH_NOARGS,
     "fileno() -> the eventfd that becomes readable when frames were written."},
    {"close", (PyCFunction)Writer_close, METH_NOARGS,
     "close(): write what was put, then stop the thread."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Writer_getset[] = {
    {"max_fds", (getter)Writer_max_fds, NULL, "descriptors below this only", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject WriterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "app.realtime._sendthread.Writer",
    .tp_basicsize = sizeof(Writer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A thread that sends frames without the GIL.",
    .tp_new = Writer_new,
    .tp_dealloc = (destructor)Writer_dealloc,
    .tp_methods = Writer_methods,
    .tp_getset = Writer_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sendthread", "Frames sent by a thread without the GIL.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sendthread(void) {
    if (PyType_Ready(&WriterType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&WriterType);
    if (PyModule_AddObject(m, "Writer", (PyObject *)&WriterType) < 0
            || PyModule_AddStringConstant(m, "SOURCE_SHA", SOURCE_SHA) < 0) {
        Py_DECREF(&WriterType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
